import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from '../src/webhook-signature.verifier';

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: { id: string; type: string; createdAt: string; data: Record<string, unknown> };
  verified: boolean;
}

/**
 * A webhook receiver on 127.0.0.1 as a user of the SDK writes one: each path has a secret,
 * every delivery is verified with verifyWebhookSignature over the raw body, and answered
 * 200 when it verifies, 401 when not.
 */
export class SignedReceiver {
  readonly deliveries: Delivery[] = [];
  private readonly secrets = new Map<string, string>();
  private waiters: { match: (d: Delivery) => boolean; resolve: (d: Delivery) => void }[] = [];

  private constructor(
    private readonly server: Server,
    readonly base: string,
  ) {}

  static async start(): Promise<SignedReceiver> {
    let self: SignedReceiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res.writeHead(self!.handle(req.url ?? '/', req.headers, Buffer.concat(chunks))).end());
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
    self = new SignedReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return self;
  }

  /** Verify what arrives at `path` with `secret`. */
  expect(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  /** The first delivery (already received or to come) that matches. */
  next(match: (d: Delivery) => boolean): Promise<Delivery> {
    const found = this.deliveries.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(path: string, headers: IncomingHttpHeaders, raw: Buffer): number {
    const secret = this.secrets.get(path);
    const verified = secret !== undefined && verifyWebhookSignature({ header: headers[WEBHOOK_SIGNATURE_HEADER], rawBody: raw, secret });
    const delivery: Delivery = { path, headers, rawBody: raw.toString('utf8'), body: JSON.parse(raw.toString('utf8')), verified };
    this.deliveries.push(delivery);
    this.waiters = this.waiters.filter((w) => (w.match(delivery) ? (w.resolve(delivery), false) : true));
    return verified ? 200 : 401;
  }
}
