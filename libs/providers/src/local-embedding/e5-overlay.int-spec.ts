import { createHash } from 'crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import koffi from 'koffi';
import { locateE5Model } from './e5-model-files';
import { parseEmbeddingHeads, scoreChunks } from './embedding-heads';
import { EmbeddingPool } from './embedding-pool';
import { LocalEmbeddingScorer, defaultHeadsPath } from './local-embedding.scorer';

// Loads the real model (`npm run models:fetch`) and the engine's overlay loader (e5f_load_overlay).
jest.setTimeout(60_000);

const DIM = 384;
const TEXTS = ['Je vais te tuer ce soir', 'I love my cat', 'Heute Nacht mache ich Schluss', '', 'a long one. '.repeat(300)];

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return ab / Math.sqrt(aa * bb);
};
const row = (v: Float32Array, i: number) => v.subarray(i * DIM, (i + 1) * DIM);

/** The overlay's tensor table: name -> [type, elements, offset] (the format in e5_fast.c). */
function tensors(buf: Buffer): Map<string, { type: number; count: number; offset: number }> {
  const out = new Map<string, { type: number; count: number; offset: number }>();
  for (let t = 0; t < buf.readUInt32LE(20); t++) {
    const e = 24 + t * 40;
    const name = buf.toString('latin1', e, e + 24).replace(/\0+$/, '');
    out.set(name, { type: buf.readUInt32LE(e + 24), count: buf.readUInt32LE(e + 28), offset: Number(buf.readBigUInt64LE(e + 32)) });
  }
  return out;
}

describe('fine-tuned layer overlays (e5f_load_overlay)', () => {
  const lib = koffi.load(locateE5Model().libraryPath);
  const sig = (name: string) => `int ${name}(void *m, const char **texts, int n, int is_query, float *out)`;
  const load = lib.func('void *e5f_load(const char *path)');
  const free = lib.func('void e5f_free(void *m)');
  const embedFast = lib.func(sig('e5f_embed_batch'));
  const embedReference = lib.func(sig('e5f_embed_batch_reference'));
  const loadOverlay = lib.func('int e5f_load_overlay(void *m, const char *path)');
  const exportOverlay = lib.func('int e5f_export_overlay(void *m, int first, int n, const char *path)');
  let dir: string;

  const withModel = <T>(overlay: string | null, f: (m: unknown) => T): T => {
    const m: unknown = load(locateE5Model().weightsPath);
    expect(m).not.toBeNull();
    try {
      if (overlay !== null) expect(loadOverlay(m, overlay)).toBe(4);
      return f(m);
    } finally {
      free(m);
    }
  };
  const embed = (m: unknown, engine = embedFast) => {
    const out = new Float32Array(TEXTS.length * DIM);
    expect(engine(m, TEXTS, TEXTS.length, 1, out)).toBe(0);
    return out;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'e5-overlay-'));
    // layers 9-12 (0-based 8..11) as published: the overlay that changes nothing
    withModel(null, (m) => expect(exportOverlay(m, 8, 4, join(dir, 'same.ovl'))).toBe(0));
    // the same with layer 11's fi weights changed (a nibble flipped in every third byte) and
    // layer 12's output bias moved: an overlay that changes the embedding
    const buf = readFileSync(join(dir, 'same.ovl'));
    const t = tensors(buf);
    const fi = t.get('l10.fi.w')!;
    for (let b = fi.offset; b < fi.offset + (fi.count / 32) * 18; b += 18) for (let j = 2; j < 18; j += 3) buf[b + j] ^= 0x11;
    const fo = t.get('l11.fo.b')!;
    for (let i = 0; i < fo.count; i++) buf.writeFloatLE(buf.readFloatLE(fo.offset + 4 * i) * 3 + 0.05, fo.offset + 4 * i);
    writeFileSync(join(dir, 'tuned.ovl'), buf);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes 4 layers as 64 tensors, Q4_0 weights and f32 vectors (~4 MB), and an overlay of the published layers changes nothing', () => {
    const buf = readFileSync(join(dir, 'same.ovl'));
    expect(buf.toString('latin1', 0, 4)).toBe('E5OV');
    const t = tensors(buf);
    expect(t.size).toBe(64);
    expect(t.get('l8.q.w')).toMatchObject({ type: 2, count: 384 * 384 });
    expect(t.get('l11.fi.w')).toMatchObject({ type: 2, count: 1536 * 384 });
    expect(t.get('l11.oln.b')).toMatchObject({ type: 0, count: 384 });
    expect(buf.length).toBeGreaterThan(3_900_000);
    expect(buf.length).toBeLessThan(4_200_000);
    const base = withModel(null, (m) => embed(m));
    expect(withModel(join(dir, 'same.ovl'), (m) => embed(m))).toEqual(base);
  });

  it('runs the overlay’s layers in both forward passes: the panel kernels agree with e5.c’s on them (cosine ≥ 0.9995), and the embedding moves', () => {
    const base = withModel(null, (m) => embed(m));
    const [fast, reference] = withModel(join(dir, 'tuned.ovl'), (m) => [embed(m), embed(m, embedReference)]);
    TEXTS.forEach((_, i) => {
      expect(cosine(row(fast, i), row(reference, i))).toBeGreaterThan(0.9995);
      expect(cosine(row(fast, i), row(base, i))).toBeLessThan(0.999);
    });
  });

  it('refuses a missing, foreign, truncated or inconsistent file and leaves the model as it was', () => {
    const good = readFileSync(join(dir, 'tuned.ovl'));
    const variant = (name: string, f: (b: Buffer) => Buffer) => {
      const p = join(dir, name);
      writeFileSync(p, f(Buffer.from(good)));
      return p;
    };
    const cases: [string, number][] = [
      [join(dir, 'absent.ovl'), -1],
      [variant('magic.ovl', (b) => (b.write('XXXX', 0, 'latin1'), b)), -2],
      [variant('dims.ovl', (b) => (b.writeUInt32LE(512, 8), b)), -2],
      [variant('short.ovl', (b) => b.subarray(0, b.length - 100)), -3],
      [variant('name.ovl', (b) => (b.write('l8.q.x', 24, 'latin1'), b)), -3],
      [variant('type.ovl', (b) => (b.writeUInt32LE(0, 24 + 24), b)), -3],
      [variant('layer.ovl', (b) => (b.write('l12.q.w\0', 24, 'latin1'), b)), -3],
    ];
    const base = withModel(null, (m) => embed(m));
    withModel(null, (m) => {
      for (const [path, code] of cases) expect([path, loadOverlay(m, path)]).toEqual([path, code]);
      expect(embed(m)).toEqual(base);
    });
  });

  it('loads in every worker of a pool, and a scorer whose heads pin an overlay checks its sha256 before starting', async () => {
    const tuned = join(dir, 'tuned.ovl');
    const direct = withModel(tuned, (m) => embed(m));
    const pool = EmbeddingPool.start({ workers: 2, overlayPath: tuned, log: () => undefined });
    try {
      await pool.ready();
      const viaPool = await Promise.all(TEXTS.map((t) => pool.embed(t)));
      viaPool.forEach((v, i) => expect(cosine(v, row(direct, i))).toBeGreaterThan(0.99999));
    } finally {
      await pool.close();
    }
    const broken = EmbeddingPool.start({ workers: 1, overlayPath: join(dir, 'magic.ovl'), log: () => undefined });
    try {
      await expect(broken.ready()).rejects.toThrow(/e5f_load_overlay refused/);
    } finally {
      await broken.close();
    }
    const heads = parseEmbeddingHeads(JSON.parse(readFileSync(defaultHeadsPath(), 'utf8')));
    const sha256 = createHash('sha256').update(readFileSync(tuned)).digest('hex');
    const headsWith = (overlay: { file: string; sha256: string }) => {
      const p = join(dir, `heads-${overlay.file}-${overlay.sha256.slice(0, 4)}.json`);
      writeFileSync(p, JSON.stringify({ ...heads, model: { ...heads.model, overlay } }));
      return p;
    };
    expect(() => LocalEmbeddingScorer.start({ headsPath: headsWith({ file: 'tuned.ovl', sha256: '0'.repeat(64) }), workers: 1 })).toThrow(
      expect.objectContaining({ code: 'TEXT_MODEL_MISMATCH' }),
    );
    expect(() => LocalEmbeddingScorer.start({ headsPath: headsWith({ file: 'gone.ovl', sha256 }), workers: 1 })).toThrow(
      expect.objectContaining({ code: 'TEXT_MODEL_MISSING' }),
    );
    const scorer = LocalEmbeddingScorer.start({ headsPath: headsWith({ file: 'tuned.ovl', sha256 }), workers: 1, cascade: false, log: () => undefined });
    try {
      await scorer.ready();
      const s = await scorer.scoreWithPath(TEXTS[0], 'fr');
      expect(s.path).toBe('embedding');
      const expected = scoreChunks(heads.heads, [row(direct, 0)], s.signals);
      for (const signal of Object.keys(heads.heads) as (keyof typeof expected)[]) expect(s.signals[signal]).toBeCloseTo(expected[signal], 5);
    } finally {
      await scorer.close();
    }
  });
});
