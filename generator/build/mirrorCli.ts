/** `npm run mirror -- --from <site URL> --out <dir>`: a local copy of a deployed site, downloading only what changed (generator/build/mirror/). */
import { mirrorCommand } from './mirror/command.ts';

await mirrorCommand().parseAsync();
