/** Prints the `_worker.js` a build writes (hosts/all/build/hostRules.ts), from whatever folder it runs in (routes.test.ts). */
import { renderHostRules } from '../generator/hosts/all/build/hostRules.ts';

const files = new Map<string, Buffer>();
renderHostRules(files);
process.stdout.write(files.get('_worker.js')!);
