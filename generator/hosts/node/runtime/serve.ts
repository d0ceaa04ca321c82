/** `npm start -- --port <n> --dir <public dir>`: serve a built site locally with the edge routes. */
import fs from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { startServer } from './server.ts';

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('expected a port number 0-65535 (0: any free port)');
  return port;
}

const program = new Command('start')
  .description('Serve a built site on 127.0.0.1 with the edge routes answered by the edge handler')
  .option('-p, --port <n>', 'port (0: any free port)', parsePort, 8080)
  .option('-d, --dir <dir>', 'published folder', 'public')
  .action(async (options: { port: number; dir: string }) => {
    if (!fs.existsSync(options.dir) || !fs.statSync(options.dir).isDirectory()) {
      console.error(`start failed: ${options.dir} is not a folder; run npm run build first`);
      process.exitCode = 1;
      return;
    }
    try {
      const server = await startServer(options.dir, options.port);
      console.log(`Serving ${options.dir} at ${server.url}`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      console.error(`start failed: port ${options.port} on 127.0.0.1 is in use; choose another with --port (0: any free port)`);
      process.exitCode = 1;
    }
  });

await program.parseAsync();
