import * as fs from 'node:fs';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { EventEnvelope, Topic } from '@cds/events';
import { e2eMode, infraEnv, prefixOf, RunningService } from '@cds/testing';
import { SIGNATURE_HEADER, verifySignature, WebhookSignatureError } from '@cds/webhooks';
// The adapter itself, not @cds/event-log's index (whose Nest module jest cannot load).
import { KafkaEventLog } from '../../libs/event-log/src/kafka/kafka-event-log.adapter';
import { parseRecord } from '../../libs/event-log/src/file/record-codec';

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
  /** Per request, when set: the status to answer (else `status`), or a promise of it to
   * hold the answer (the request is listed in `received` once answered). */
  respond: ((r: Omit<Received, 'answered'>) => number | Promise<number>) | null = null;
  secret: string | null = null;
  private waiters: { match: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** Listening on `port` (default: a free one), e.g. one that refused connections until now. */
  static async start(path = '/hook', port = 0): Promise<TestReceiver> {
    let self: TestReceiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => self!.handle(req.headers, Buffer.concat(chunks).toString('utf8'), (code) => res.writeHead(code).end(String(code))));
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
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
    const settle = (answered: number) => {
      const r: Received = { headers, rawBody, body, verified, answered };
      this.received.push(r);
      answer(answered);
      this.waiters = this.waiters.filter((w) => (w.match(r) ? (w.resolve(r), false) : true));
    };
    const answered = verified === false ? 401 : (this.respond?.({ headers, rawBody, body, verified }) ?? this.status);
    if (typeof answered === 'number') settle(answered);
    else void answered.then(settle);
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

/**
 * The log of a running deployment, read the way each mode allows while it runs: the
 * embedded file log's segment files (the service holds the log's lock, but its records
 * can be decoded; a record being written is not read yet), or the deployment's Kafka topics.
 */
export class DeploymentLog {
  private constructor(
    private readonly svc: RunningService,
    private readonly kafka: KafkaEventLog | null,
  ) {}

  static async open(svc: RunningService): Promise<DeploymentLog> {
    if (e2eMode() === 'embedded') return new DeploymentLog(svc, null);
    const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
    const kafka = await KafkaEventLog.open({
      brokers: infraEnv().KAFKA_BROKERS.split(','),
      clientId: 'e2e-webhooks',
      topicPrefix: prefixOf(svc.dataDir),
      logger: quiet,
    });
    return new DeploymentLog(svc, kafka);
  }

  async events(topic: Topic): Promise<EventEnvelope[]> {
    if (this.kafka) {
      const out: EventEnvelope[] = [];
      for (const [partition, end] of await this.kafka.endOffsets(topic)) {
        for (let from = 0; from < end;) {
          const batch = await this.kafka.read(topic, partition, from, end - from);
          if (batch.length === 0) break;
          out.push(...batch.map((s) => s.event));
          from = batch[batch.length - 1].offset + 1;
        }
      }
      return out;
    }
    const dir = path.join(this.svc.dataDir, 'log', 'topics', topic);
    if (!fs.existsSync(dir)) return [];
    const out: EventEnvelope[] = [];
    for (const file of fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.seg'))
      .sort()) {
      const buf = fs.readFileSync(path.join(dir, file));
      for (let pos = 0; ;) {
        const r = parseRecord(buf, pos, buf.length);
        if (r.kind !== 'record') break;
        out.push(JSON.parse(buf.subarray(r.payloadStart, r.payloadStart + r.payloadLength).toString('utf8')));
        pos = r.next;
      }
    }
    return out;
  }

  /** Polls until an event of `topic` matches. */
  find(topic: Topic, match: (e: EventEnvelope) => boolean, what: string): Promise<EventEnvelope> {
    return eventually(async () => (await this.events(topic)).find(match), what, 30_000);
  }

  async close(): Promise<void> {
    await this.kafka?.close();
  }
}
