import { leavesAt } from './embedding-exit';
import { EmbeddingPool } from './embedding-pool';
import { WorkerExit } from './embedding-worker.protocol';

// The pool's early exits and captured layers, on the real model (`npm run models:fetch`).
jest.setTimeout(60_000);

const TEXTS = [
  'I am going to kill you and your whole family tonight',
  'have a nice day',
  'Ich werde dich heute Nacht umbringen',
  'see you at the meeting tomorrow, bring the slides',
  'I want to cut myself again',
  'the weather in Lisbon is lovely in May',
  'I am going to kill you. '.repeat(120),
  '',
];

describe('EmbeddingPool: capture layers and early exits', () => {
  const pools: EmbeddingPool[] = [];
  const start = (o: Parameters<typeof EmbeddingPool.start>[0]) => {
    const p = EmbeddingPool.start({ log: () => undefined, ...o });
    pools.push(p);
    return p;
  };
  afterAll(() => Promise.all(pools.map((p) => p.close())));

  it('returns the pooled output of each capture layer beside the last, as pools truncated there do', async () => {
    const [captured, at3, at6, full] = [
      start({ workers: 1, capture: [3, 6] }),
      start({ workers: 1, layers: 3 }),
      start({ workers: 1, layers: 6 }),
      start({ workers: 1 }),
    ];
    await Promise.all([captured, at3, at6, full].map((p) => p.ready()));
    expect(captured.layers).toBe(12);
    const got = await Promise.all(TEXTS.map((t) => captured.encode(t)));
    const want = await Promise.all([at3, at6, full].map((p) => Promise.all(TEXTS.map((t) => p.embed(t)))));
    got.forEach((g, i) => {
      expect(g.layer).toBe(12);
      expect(g.captured[0]).toEqual(want[0][i]);
      expect(g.captured[1]).toEqual(want[1][i]);
      expect(g.embedding).toEqual(want[2][i]);
    });
  });

  it('lets a text leave at an exit exactly when the rule holds on that layer’s output, and resumes the others to the same answer as a whole pass', async () => {
    const probe = start({ workers: 1, layers: 4 });
    await probe.ready();
    const at4 = await Promise.all(TEXTS.map((t) => probe.embed(t)));
    // one probe, the first component: texts at or under the median leave at layer 4
    const W = new Float32Array(384);
    W[0] = 1;
    const median = [...at4.map((v) => v[0])].sort((a, b) => a - b)[TEXTS.length / 2 - 1];
    const exit: WorkerExit = { layer: 4, W, lo: Float32Array.of(median), hi: Float32Array.of(Infinity) };
    const [exiting, full] = [start({ workers: 1, exits: [exit], capture: [] }), start({ workers: 1 })];
    await Promise.all([exiting.ready(), full.ready()]);
    // submitted together: one batch, some texts leaving at 4, the rest resumed to 12
    const got = await Promise.all(TEXTS.map((t) => exiting.encode(t)));
    const whole = await Promise.all(TEXTS.map((t) => full.embed(t)));
    let left = 0;
    got.forEach((g, i) => {
      const leaves = leavesAt(exit, at4[i]);
      expect(g.layer).toBe(leaves ? 4 : 12);
      expect(g.embedding).toEqual(leaves ? at4[i] : whole[i]);
      if (leaves) left++;
    });
    expect(left).toBe(TEXTS.length / 2);
    expect(exiting.stats().workers[0].batches).toBe(1);
  });

  it('refuses capture or exit layers out of order', () => {
    expect(() => EmbeddingPool.start({ workers: 1, capture: [6, 3] })).toThrow(/ascending/);
    expect(() =>
      EmbeddingPool.start({ workers: 1, exits: [{ layer: 0, W: new Float32Array(384), lo: new Float32Array(1), hi: new Float32Array(1) }] }),
    ).toThrow(/ascending/);
  });
});
