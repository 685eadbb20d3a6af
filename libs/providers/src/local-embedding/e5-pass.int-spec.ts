import koffi from 'koffi';
import { locateE5Model } from './e5-model-files';

// The engine's forward pass in steps (engine/e5_fast.c, e5f_pass_*), on the real model.
jest.setTimeout(60_000);

const H = 384;
const TEXTS = [
  'I am going to kill you and your whole family tonight',
  '',
  'have a nice day',
  // longer than the 512-token window: two windows, one text
  'I am going to kill you. '.repeat(120),
  'Ich werde dich heute Nacht umbringen',
  '😀 ü ß 漢字 see you at the meeting',
];

describe('e5f_pass: one forward pass in steps', () => {
  const lib = koffi.load(locateE5Model().libraryPath);
  const load = lib.func('void *e5f_load(const char *path)');
  const free = lib.func('void e5f_free(void *m)');
  const truncate = lib.func('int e5f_truncate(void *m, int n)');
  const layers = lib.func('int e5f_layers(void *m)');
  const embed = lib.func('int e5f_embed_batch(void *m, const char **texts, int n, int is_query, float *out)');
  const begin = lib.func('void *e5f_pass_begin(void *m, const char **texts, int n, int is_query)');
  const run = lib.func('int e5f_pass_run(void *p, int layer, float *out)');
  const keep = lib.func('int e5f_pass_keep(void *p, const int *ranks, int k)');
  const end = lib.func('void e5f_pass_end(void *p)');
  const models: unknown[] = [];
  const model = (layers?: number) => {
    const m: unknown = load(locateE5Model().weightsPath);
    models.push(m);
    if (layers !== undefined) expect(truncate(m, layers)).toBe(layers);
    return m;
  };
  const embedAll = (m: unknown, texts: string[]) => {
    const out = new Float32Array(texts.length * H);
    expect(embed(m, texts, texts.length, 1, out)).toBe(0);
    return out;
  };
  const rows = (v: Float32Array, ranks: number[]) => Float32Array.from(ranks.flatMap((r) => Array.from(v.subarray(r * H, (r + 1) * H))));
  afterAll(() => models.forEach((m) => free(m)));

  it('gives the pooled output of each layer it stops at, as a model truncated to that layer does, and resumes the texts it keeps exactly where a whole pass would be', () => {
    const full = model();
    const want = { 3: embedAll(model(3), TEXTS), 6: embedAll(model(6), TEXTS), 12: embedAll(full, TEXTS) };
    const p: unknown = begin(full, TEXTS, TEXTS.length, 1);
    expect(p).not.toBeNull();
    try {
      const at3 = new Float32Array(TEXTS.length * H);
      expect(run(p, 3, at3)).toBe(0);
      expect(at3).toEqual(want[3]);
      // the empty text, the windowed one and the last leave; the others continue
      expect(keep(p, [0, 2, 4], 3)).toBe(3);
      const at6 = new Float32Array(3 * H);
      expect(run(p, 6, at6)).toBe(0);
      expect(at6).toEqual(rows(want[6], [0, 2, 4]));
      expect(keep(p, [1, 2], 2)).toBe(2);
      const at12 = new Float32Array(2 * H);
      expect(run(p, 12, at12)).toBe(0);
      expect(at12).toEqual(rows(want[12], [2, 4]));
    } finally {
      end(p);
    }
  });

  it('refuses a layer behind it or past the last one run, and ranks out of order; pools again at the layer it is at', () => {
    expect(layers(model())).toBe(12);
    const four = model(4);
    expect(layers(four)).toBe(4);
    const p: unknown = begin(four, TEXTS, TEXTS.length, 1);
    try {
      const out = new Float32Array(TEXTS.length * H);
      expect(run(p, 5, out)).toBe(-1); // the model runs 4 layers (e5f_truncate)
      expect(run(p, 0, out)).toBe(-1);
      expect(run(p, 4, out)).toBe(0);
      expect(run(p, 2, out)).toBe(-1);
      const again = new Float32Array(TEXTS.length * H);
      expect(run(p, 4, again)).toBe(0);
      expect(again).toEqual(out);
      expect(keep(p, [2, 1], 2)).toBe(-1);
      expect(keep(p, [0, TEXTS.length], 2)).toBe(-1);
      expect(keep(p, [], 0)).toBe(0);
      expect(run(p, 4, new Float32Array(1))).toBe(0);
    } finally {
      end(p);
    }
  });
});
