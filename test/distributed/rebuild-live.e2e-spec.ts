import { execFile, ExecFileException } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiClient, Topology } from '@cds/testing';
import { CheckLoad, expectLogAndReadModelsAgree, sleep, startTopology } from './distributed-support';

// Bounds for a hang, not a speed check (bench:distributed measures the rebuild): above
// the rebuild's own waits (index creation on a busy node up to 2 × 100 s, the live
// projector's promotion up to 120 s), so a slow rebuild reports its own error.
jest.setTimeout(480_000);

const PROJECTOR_MAIN = path.resolve(__dirname, '../../dist/apps/projector/src/main.js');

/** The generation the deployment's aliases point at (Elasticsearch's own answer). */
async function servedGeneration(topology: Topology): Promise<string> {
  const alias = `${topology.options.prefix}-decisions`;
  const r = await fetch(`${topology.env.ELASTICSEARCH_URL}/_alias/${alias}`);
  const indices = Object.keys((await r.json()) as object);
  expect(indices).toHaveLength(1);
  return indices[0].slice(`${alias}-`.length);
}

function runRebuild(topology: Topology): Promise<{ events: number; generation: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [PROJECTOR_MAIN, '--rebuild'],
      // LOG_LEVEL=log: the rebuild's progress (each phase with its time) is in a failure's message.
      { env: { ...process.env, ...topology.env, ROLE: 'projector', LOG_LEVEL: 'log' }, timeout: REBUILD_TIMEOUT_MS },
      (err, stdout, stderr) => {
        if (!err) return resolve(JSON.parse(stdout.trim().split('\n').pop()!));
        void whyRebuildFailed(topology, err, `${stdout}\n${stderr}`).then((why) => reject(new Error(why)));
      },
    );
  });
}

const REBUILD_TIMEOUT_MS = 400_000;
const tail = (text: string, lines: number) => text.trim().split('\n').slice(-lines).join('\n');

/** A failed rebuild's message: how it ended, what it logged, what the live projector
 * logged, and the Elasticsearch node's state (pending cluster-state tasks, heap, indices). */
async function whyRebuildFailed(topology: Topology, err: ExecFileException, output: string): Promise<string> {
  const es = topology.env.ELASTICSEARCH_URL;
  const ask = async (p: string) => {
    try {
      const r = await fetch(`${es}${p}`, { signal: AbortSignal.timeout(10_000) });
      return (await r.text()).trim();
    } catch (e) {
      return `(${p}: ${(e as Error).message})`;
    }
  };
  const ended = err.killed ? `killed by ${err.signal} after ${REBUILD_TIMEOUT_MS} ms` : `exit ${err.code ?? err.signal}`;
  return [
    `rebuild failed (${ended})`,
    '--- rebuild output ---',
    tail(output, 30),
    '--- live projector (last lines) ---',
    tail(topology.projector.output(), 20),
    '--- elasticsearch ---',
    await ask('/_cluster/health?filter_path=status,number_of_pending_tasks,active_shards,initializing_shards,unassigned_shards'),
    tail(await ask('/_cat/pending_tasks?v'), 10),
    await ask('/_cat/nodes?h=heap.percent,ram.percent,cpu,load_1m'),
    '--- elasticsearch warnings (slow cluster-state tasks, GC) ---',
    esWarnings(),
  ].join('\n');
}

/** The node's last WARN lines, from the log scripts/infra/infra.sh keeps. */
function esWarnings(): string {
  const state = path.resolve(__dirname, '../..', process.env.INFRA_STATE ?? '.infra');
  try {
    const log = fs.readFileSync(path.join(state, 'logs/elasticsearch/cds-local.log'), 'utf8');
    return tail(
      log
        .split('\n')
        .filter((l) => l.includes('[WARN ]') && !l.includes('BootstrapChecks'))
        .map((l) => l.slice(0, 300))
        .join('\n'),
      8,
    );
  } catch (e) {
    return `(${(e as Error).message})`;
  }
}

/**
 * Reads that go on through the whole rebuild: a stored decision by id, and the newest
 * page of the listing. Every answer must be a 200 (the old generation serves until the
 * swap, the new one after it).
 */
class ReadLoad {
  readonly failures: string[] = [];
  reads = 0;
  private running = true;
  private readonly loop: Promise<void>;

  constructor(
    private readonly api: ApiClient,
    private readonly ids: () => string[],
  ) {
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    while (this.running) {
      const known = this.ids();
      const id = known[Math.floor(Math.random() * known.length)];
      for (const p of [`/v1/decisions/${id}`, '/v1/decisions?limit=5']) {
        const r = await this.api.get(p);
        this.reads++;
        if (r.status !== 200) this.failures.push(`${p}: ${r.status} ${r.text}`);
      }
      await sleep(5);
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}

/** `projector --rebuild` beside the live deployment, checks streaming in the while:
 * readers never see a gap, the aliases move to the new generation, and afterwards the
 * read models hold exactly the decisions of the log. */
describe('distributed: rebuild beside the live services', () => {
  let topology: Topology;
  afterAll(() => topology?.stop());

  it('keeps answering through the swap and loses nothing written during the rebuild', async () => {
    topology = await startTopology('rebuild-live');
    const api = new ApiClient(topology.baseUrl, topology.options.adminKey);
    const before = await servedGeneration(topology);
    // A steady stream of writes, not all the deployment can take: on a slower machine
    // that saturating load starved Elasticsearch's cluster-state work (CI runs saw the
    // rebuild's index creation pass 10 s, then the whole rebuild pass 200 s).
    const load = new CheckLoad(api, 3, 10);
    let reads: ReadLoad | undefined;
    let rebuilt: { events: number; generation: string };
    try {
      await load.ackMore(300);
      reads = new ReadLoad(api, () => [...load.acknowledged.keys()]);
      const ackedAtStart = load.acknowledged.size;
      rebuilt = await runRebuild(topology);
      expect(load.acknowledged.size).toBeGreaterThan(ackedAtStart); // writes went on during the rebuild
      await load.ackMore(100); // and after the swap, through the projector's new generation
    } finally {
      await load.stop();
      await reads?.stop();
    }
    expect(reads!.reads).toBeGreaterThan(0);
    expect(reads!.failures).toEqual([]);
    expect(load.failures).toEqual([]);
    expect(rebuilt.generation).not.toBe(before);
    expect(rebuilt.events).toBeGreaterThanOrEqual(300);
    expect(await servedGeneration(topology)).toBe(rebuilt.generation);
    await expectLogAndReadModelsAgree(topology, api, load.acknowledged);
    // The old generation is gone (not re-created by a write in flight at the swap).
    const old = await fetch(`${topology.env.ELASTICSEARCH_URL}/${topology.options.prefix}-decisions-${before}`);
    expect(old.status).toBe(404);
  });
});
