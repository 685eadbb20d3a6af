import http from 'node:http';
import { AddressInfo } from 'node:net';

/** A request as the fake provider received it. */
export interface RecordedRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body parsed, or undefined when it is not JSON. */
  json: unknown;
  /** Date.now() when it arrived. */
  at: number;
}

/** One scripted answer. `raw` is sent as it is (malformed JSON); `body` as JSON. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  raw?: string;
  /** Wait before answering (a slow provider). */
  delayMs?: number;
}

/**
 * A stand-in provider on 127.0.0.1 (port 0) that answers from a script: each request
 * takes the next reply, the last one repeating. Every request is recorded.
 */
export class FakeProviderServer {
  readonly requests: RecordedRequest[] = [];
  private script: Reply[] = [{ status: 500, body: { error: { message: 'nothing scripted' } } }];

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<FakeProviderServer> {
    const server = http.createServer();
    const fake = new FakeProviderServer(server);
    server.on('request', (req, res) => fake.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The next answers, in order; the last one repeats. Forgets earlier requests. */
  answer(...replies: Reply[]): void {
    this.script = replies;
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://fake');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      this.requests.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body, json, at: Date.now() });
      const reply = this.script.length > 1 ? (this.script.shift() as Reply) : this.script[0];
      const send = () => {
        if (res.destroyed) return;
        const payload = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json; charset=utf-8', ...reply.headers });
        res.end(payload);
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
      else send();
    });
  }
}
