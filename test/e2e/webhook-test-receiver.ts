import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { SIGNATURE_HEADER, verifySignature, WebhookSignatureError } from '@cds/webhooks';

export interface Received {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: any;
  /** Signature verified with the shipped verifier (null when no secret was set). */
  verified: boolean | null;
  answered: number;
}

/**
 * A real HTTP receiver on loopback for the e2e suites: verifies every delivery with the
 * shipped verifier (401 when it fails, as the spec asks of receivers), answers `status`
 * otherwise, and lets a test await what arrives.
 */
export class TestReceiver {
  readonly received: Received[] = [];
  /** What to answer verified requests with (e.g. 503 while "down"). */
  status = 200;
  secret: string | null = null;
  private waiters: { match: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];

  private constructor(private readonly server: Server, readonly url: string) {}

  static async start(path = '/hook'): Promise<TestReceiver> {
    let self: TestReceiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => self!.handle(req.headers, Buffer.concat(chunks).toString('utf8'), (code) => res.writeHead(code).end(String(code))));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new TestReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    return self;
  }

  private handle(headers: IncomingHttpHeaders, rawBody: string, answer: (code: number) => void): void {
    let verified: boolean | null = null;
    if (this.secret) {
      try {
        verifySignature({ header: headers[SIGNATURE_HEADER], rawBody, secret: this.secret });
        verified = true;
      } catch (err) {
        if (!(err instanceof WebhookSignatureError)) throw err;
        verified = false;
      }
    }
    let body: any = undefined;
    try {
      body = JSON.parse(rawBody);
    } catch {
      /* kept raw */
    }
    const answered = verified === false ? 401 : this.status;
    const r: Received = { headers, rawBody, body, verified, answered };
    this.received.push(r);
    answer(answered);
    this.waiters = this.waiters.filter((w) => (w.match(r) ? (w.resolve(r), false) : true));
  }

  /** Resolves with the first request (already received or to come) that matches. */
  next(match: (r: Received) => boolean, timeoutMs = 20_000): Promise<Received> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching delivery within ${timeoutMs} ms; got ${this.received.length}`)), timeoutMs);
      this.waiters.push({ match, resolve: (r) => (clearTimeout(timer), resolve(r)) });
    });
  }

  ofType(type: string, subjectId?: string): (r: Received) => boolean {
    return (r) => r.body?.type === type && (subjectId === undefined || r.body?.data?.id === subjectId);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Poll until `probe` returns a value (not undefined), bounded. */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
