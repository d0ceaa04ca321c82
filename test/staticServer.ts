/**
 * The published folder over real HTTP on 127.0.0.1 as a plain static host serves it: http-server,
 * no edge routes, its files cacheable for an hour (http-server's default): a browser loading the
 * page again takes its scripts, data and pictures from its cache, as a returning visitor's does
 * (about half of Chromium's CPU per load).
 */
import type { AddressInfo } from 'node:net';
import { createServer } from 'http-server';
import { shadowLegacyHeaderFields } from '../generator/hosts/node/runtime/server.ts';

export interface StaticSite {
  /** Base URL ending in "/". */
  url: string;
  close(): Promise<void>;
}

export async function serveStatic(root: string): Promise<StaticSite> {
  const http = createServer({ root, showDir: 'false' });
  http.server.prependListener('request', shadowLegacyHeaderFields); // as npm start does: no DEP0066 warning
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => {
      http.server.close(() => resolve());
      http.server.closeAllConnections();
    }),
  };
}
