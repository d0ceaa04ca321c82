/** A builder that takes the lock of `argv[2]` (an output folder), says "held" and waits to be killed. */
import { acquireLock } from '../generator/build/publish/lock.ts';
import { publishLayout } from '../generator/build/publish/layout.ts';

const out = process.argv[2];
const release = acquireLock(publishLayout(out).lock, out);
console.log('held');
// Referenced until the process ends: a collected connection would let the lock go.
setInterval(() => release, 60_000);
