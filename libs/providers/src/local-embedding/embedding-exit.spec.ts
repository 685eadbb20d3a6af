import { LOCAL_TEXT_CATEGORIES, LOCAL_TEXT_SIGNAL_FOLDING } from '../local-text/local-text.signals';
import { EmbeddingHead, headProbability } from './embedding-heads';
import { EmbeddingExitFile, leavesAt, logit, parseEmbeddingExit, scoreLayeredChunks, workerExits } from './embedding-exit';

const DIM = 4;
const head = (w: number[], b: number, platt = { a: 1, b: 0 }): EmbeddingHead => ({ w, b, platt });
const THRESHOLDS = { sexual: 0.8, hate: 0.7, harassment: 0.7, violence: 0.7, 'self-harm': 0.5 };

function exitFile(margin: number): EmbeddingExitFile {
  return {
    format: 1,
    calibratedFor: { model: 'multilingual-e5-small-q4+heads:0123456789ab', weightsSha256: 'w' },
    thresholds: THRESHOLDS,
    exits: [
      {
        layer: 4,
        margin,
        heads: {
          violence: head([2, 0, 0, 0], -1),
          violence_threat: head([0, 3, 0, 0], 0.5, { a: 1.5, b: -0.2 }),
          hate: head([0, 0, 1, -1], 0),
          // folds into no category: never decides an exit
          toxicity: head([5, 5, 5, 5], 0),
        },
      },
    ],
  };
}

/** What the rule means: every probed signal's estimate at least `margin` logits from its threshold. */
function clearlyDecided(f: EmbeddingExitFile, x: number[]): boolean {
  const e = f.exits[0];
  return LOCAL_TEXT_CATEGORIES.every((c) =>
    LOCAL_TEXT_SIGNAL_FOLDING[c].every((s) => {
      const h = e.heads[s];
      return !h || Math.abs(logit(headProbability(h, x)) - logit(f.thresholds[c])) >= e.margin;
    }),
  );
}

describe('early exit rule', () => {
  it('lets a text leave exactly when every probed estimate is at least `margin` logits from its threshold (a random sample of pooled outputs)', () => {
    const f = exitFile(1.5);
    const [exit] = workerExits(f);
    expect(exit.lo).toHaveLength(3); // violence, violence_threat, hate: not toxicity
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 4 - 2;
    let left = 0;
    for (let i = 0; i < 2000; i++) {
      const x = [rand(), rand(), rand(), rand()];
      const decided = clearlyDecided(f, x);
      expect(leavesAt(exit, x)).toBe(decided);
      if (decided) left++;
    }
    expect(left).toBeGreaterThan(100);
    expect(left).toBeLessThan(1900);
  });

  it('with a margin of 0 every text leaves; the wider the margin, the fewer leave', () => {
    const xs = Array.from({ length: 200 }, (_, i) => [Math.sin(i), Math.cos(i * 1.3), Math.sin(i * 0.7), Math.cos(i * 0.2)]);
    const leaving = (m: number) => xs.filter((x) => leavesAt(workerExits(exitFile(m))[0], x)).length;
    expect(leaving(0)).toBe(200);
    expect(leaving(1)).toBeGreaterThan(leaving(3));
    expect(leaving(100)).toBe(0);
  });

  it('reads each chunk with the heads of the layer it left at, max over chunks, the fallback for signals without a head', () => {
    const final = { violence: head([0, 0, 0, 0], 2), hate: head([0, 0, 0, 0], -2) };
    const early = { violence: head([0, 0, 0, 0], -3), hate: head([0, 0, 0, 0], 1) };
    const at = (layer: number) => (layer === 12 ? final : early);
    const x = [0, 0, 0, 0];
    const s = scoreLayeredChunks(
      at,
      [
        { embedding: x, layer: 12 },
        { embedding: x, layer: 4 },
      ],
      { sexual: 0.3 },
    );
    expect(s.violence).toBeCloseTo(1 / (1 + Math.exp(-2)));
    expect(s.hate).toBeCloseTo(1 / (1 + Math.exp(-1)));
    expect(s.sexual).toBe(0.3);
    expect(scoreLayeredChunks(at, [{ embedding: x, layer: 4 }], {}).violence).toBeCloseTo(1 / (1 + Math.exp(3)));
  });

  it('parses a valid file and refuses a broken one', () => {
    const f = exitFile(1);
    expect(parseEmbeddingExit(JSON.parse(JSON.stringify(f)), DIM)).toEqual(f);
    expect(() => parseEmbeddingExit({ ...f, format: 2 }, DIM)).toThrow(/format/);
    expect(() => parseEmbeddingExit({ ...f, exits: [f.exits[0], f.exits[0]] }, DIM)).toThrow(/ascending/);
    expect(() => parseEmbeddingExit({ ...f, exits: [{ ...f.exits[0], margin: -1 }] }, DIM)).toThrow(/margin/);
    expect(() => parseEmbeddingExit(f, 3)).toThrow(/w must hold 3 numbers/);
    expect(() => parseEmbeddingExit({ ...f, thresholds: { ...THRESHOLDS, hate: 1 } }, DIM)).toThrow(/thresholds.hate/);
  });
});
