/** The part of http-server (no published types) that the local server uses. */
declare module 'http-server' {
  import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
  import type { EventEmitter } from 'node:events';

  /** union's buffered request stream; `buffer = false` replays and then streams its body as 'data' events. */
  export interface UnionRequest extends EventEmitter {
    url: string;
    method: string;
    headers: IncomingHttpHeaders;
    buffer: boolean;
  }

  export interface UnionResponse extends EventEmitter {
    /** The Node response union writes to. */
    response: ServerResponse;
    writeHead(status: number, headers?: Record<string, string | number>): void;
    setHeader(name: string, value: string | number): void;
    end(data?: string | Buffer): void;
  }

  export type Middleware = (req: UnionRequest, res: UnionResponse, next: () => void) => void;

  export interface Options {
    root?: string;
    before?: Middleware[];
    headers?: Record<string, string>;
    cache?: number;
    showDir?: 'true' | 'false';
    autoIndex?: 'true' | 'false';
  }

  export interface HttpServer {
    server: Server;
    listen(port: number, host: string, callback?: () => void): void;
    close(): void;
  }

  export function createServer(options?: Options): HttpServer;
}
