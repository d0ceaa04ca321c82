/** Runs in every test file before its own code: whatever temporary folders it made go once it is done. */
import { afterAll } from 'vitest';
import { removeTempDirs } from './tempDirs.ts';

afterAll(removeTempDirs);
