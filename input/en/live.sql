PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE live_track_m (live_track_id INTEGER PRIMARY KEY, name TEXT);
INSERT INTO live_track_m VALUES(1, 'Song of Beginnings');
INSERT INTO live_track_m VALUES(3, 'Nova Light');
INSERT INTO live_track_m VALUES(4, 'ないしょの約束');
INSERT INTO live_track_m VALUES(5, 'Melody of Tomorrow');
INSERT INTO live_track_m VALUES(7, 'The Usual Way Home');
COMMIT;
