import { envelope } from '@cds/events';
import type { StoredEvent } from './event-log.port';
import { LogFollower, OutcomeCounter } from './log-follower';
import { HandlerOutcome, jobLogHandler, JobOutcome } from './log-handler';
import { Condition, TempDir } from './file/file-log.fixtures';

/** Outcomes counted as a prom-client Counter would count them. */
class Counts implements OutcomeCounter {
  readonly by = new Map<string, number>();
  readonly changed = new Condition();
  inc(labels: { handler: string; outcome: string }, value: number): void {
    const key = `${labels.handler}/${labels.outcome}`;
    this.by.set(key, (this.by.get(key) ?? 0) + value);
    this.changed.changed();
  }
}

const logger = () => ({
  lines: [] as string[],
  log(m: string) {
    this.lines.push(m);
  },
  error(m: string) {
    this.lines.push(m);
  },
});
const revoked = (keyId: string) => envelope('key.revoked', 1, 't1', keyId, { keyId, revokedBy: 'admin' });
const created = (keyId: string) =>
  envelope('key.created', 1, 't1', keyId, { keyId, name: keyId, scopes: ['checks'], hash: 'x', prefix: 'cds_x', createdBy: 'admin' });

describe('LogFollower running a declared handler (file log)', () => {
  let tmp: TempDir;
  let follower: LogFollower | null = null;
  beforeEach(() => {
    tmp = new TempDir();
  });
  afterEach(async () => {
    await follower?.stop();
    follower = null;
    await tmp.cleanup();
  });

  it('counts what a handler applied and skipped, and hands back the batch it asks to retry later', async () => {
    const log = await tmp.open({ retryInitialMs: 10, retryMaxMs: 20 });
    await log.append('keys', [revoked('k1'), revoked('k2'), revoked('k3')]);
    const counts = new Counts();
    const handed: number[][] = [];
    const answers: HandlerOutcome[] = [{ retryLater: 'the read models are away' }, { applied: 2, skipped: 1 }];
    follower = new LogFollower(
      log,
      {
        group: 'g',
        topics: ['keys'],
        startFrom: 'beginning',
        maxBatch: 10,
        handle: async (batch: StoredEvent[]) => {
          handed.push(batch.map((s) => s.offset));
          return answers.shift() ?? { applied: 0, skipped: batch.length };
        },
      },
      logger(),
      counts,
    );
    await counts.changed.wait(() => counts.by.has('g/applied'));
    expect(handed.slice(0, 2)).toEqual([
      [0, 1, 2],
      [0, 1, 2],
    ]);
    expect(Object.fromEntries(counts.by)).toEqual({ 'g/retry_later': 3, 'g/applied': 2, 'g/skipped': 1 });
  });

  it('runs a job on its one event type: others skipped, the first retry hands the whole batch back', async () => {
    const log = await tmp.open({ retryInitialMs: 10, retryMaxMs: 20 });
    await log.append('keys', [created('k1'), revoked('k1'), created('k2'), revoked('k2')]);
    const counts = new Counts();
    const seen: string[] = [];
    let failures = 1;
    const parkLog = logger();
    follower = new LogFollower(
      log,
      jobLogHandler(
        {
          group: 'revoker',
          topics: ['keys'],
          startFrom: 'beginning',
          maxBatch: 10,
          eventType: 'key.revoked',
          handle: async (event): Promise<JobOutcome> => {
            seen.push(event.data.keyId);
            if (event.data.keyId === 'k2' && failures-- > 0) return { retryLater: 'not now' };
            return 'applied';
          },
        },
        parkLog,
      ),
      parkLog,
      counts,
    );
    await counts.changed.wait(() => counts.by.has('revoker/applied'));
    // k1 applied, k2 asks for later: the batch comes again, k1 with it
    expect(seen).toEqual(['k1', 'k2', 'k1', 'k2']);
    expect(Object.fromEntries(counts.by)).toEqual({ 'revoker/retry_later': 4, 'revoker/applied': 2, 'revoker/skipped': 2 });
  });
});
