PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE event_m (event_id INTEGER PRIMARY KEY, name TEXT);
INSERT INTO event_m VALUES(4, 'Cherry Blossom Medley');
INSERT INTO event_m VALUES(5, 'Nova Challenge');
COMMIT;
