import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DomainError } from '@cds/errors';
import { FsBlobStore } from './fs-blob-store.adapter';

const MB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** `total` bytes in chunks of `chunk`, each filled with its index (so order matters to the hash). */
async function* chunks(total: number, chunk = CHUNK, seen?: { pulled: number; finished: boolean }): AsyncGenerator<Uint8Array> {
  try {
    for (let sent = 0, i = 0; sent < total; i++) {
      const n = Math.min(chunk, total - sent);
      sent += n;
      if (seen) seen.pulled += 1;
      yield Buffer.alloc(n, i % 251);
    }
  } finally {
    if (seen) seen.finished = true;
  }
}

function sha256Of(total: number, chunk = CHUNK): string {
  const h = createHash('sha256');
  for (let sent = 0, i = 0; sent < total; i++) {
    const n = Math.min(chunk, total - sent);
    sent += n;
    h.update(Buffer.alloc(n, i % 251));
  }
  return h.digest('hex');
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath ?? (e as any).path, e.name));
}

describe('FsBlobStore.putStream / pathOf (real files)', () => {
  let root: string;
  let store: FsBlobStore;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-blobs-stream-'));
    store = new FsBlobStore(root);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('streams 5 MB in chunks into a content-addressed blob that get and pathOf find', async () => {
    const stored = await store.putStream('t1', chunks(5 * MB), { maxBytes: 100 * MB });
    const sha = sha256Of(5 * MB);
    expect(stored).toEqual({ sha256: sha, ref: `media:sha256:${sha}`, bytes: 5 * MB });
    const file = await store.pathOf('t1', sha);
    expect(file).not.toBeNull();
    expect(createHash('sha256').update(fs.readFileSync(file!)).digest('hex')).toBe(sha);
    expect((await store.get('t1', sha))!.length).toBe(5 * MB);
    expect(filesUnder(root)).toEqual([file]);
  });

  it('takes a Node stream as well', async () => {
    const src = path.join(root, '..', `${path.basename(root)}-src.bin`);
    fs.writeFileSync(src, Buffer.alloc(3 * MB + 17, 7));
    try {
      const stored = await store.putStream('t1', fs.createReadStream(src), { maxBytes: 4 * MB });
      expect(stored.bytes).toBe(3 * MB + 17);
      expect(stored.sha256).toBe(createHash('sha256').update(fs.readFileSync(src)).digest('hex'));
    } finally {
      fs.rmSync(src, { force: true });
    }
  });

  it('pathOf answers null for another tenant, an unknown blob and a name that is not a sha256', async () => {
    const { sha256 } = await store.putStream('t1', chunks(1000), { maxBytes: 1000 });
    expect(await store.pathOf('t2', sha256)).toBeNull();
    expect(await store.pathOf('t1', 'f'.repeat(64))).toBeNull();
    expect(await store.pathOf('t1', '../../etc/passwd')).toBeNull();
    expect(await store.pathOf('t1', sha256.toUpperCase())).toBeNull();
  });

  it('past maxBytes it stops reading mid-stream, leaves no file behind and refuses with VIDEO_TOO_LARGE', async () => {
    const seen = { pulled: 0, finished: false };
    const err = await store.putStream('t1', chunks(5 * MB, CHUNK, seen), { maxBytes: 1 * MB }).catch((e) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ kind: 'too_large', code: 'VIDEO_TOO_LARGE' });
    expect(err.details).toContain(String(1 * MB));
    // It read one chunk past the limit and no more, and ended the source.
    expect(seen.pulled).toBe((1 * MB) / CHUNK + 1);
    expect(seen.finished).toBe(true);
    expect(filesUnder(root)).toEqual([]);
  });

  it('refuses with the code it is given, and takes exactly maxBytes', async () => {
    await expect(store.putStream('t1', chunks(1001), { maxBytes: 1000, tooLargeCode: 'IMAGE_TOO_LARGE' })).rejects.toMatchObject({
      kind: 'too_large',
      code: 'IMAGE_TOO_LARGE',
    });
    expect((await store.putStream('t1', chunks(1000), { maxBytes: 1000 })).bytes).toBe(1000);
    expect((await store.putStream('t1', chunks(0), { maxBytes: 0 })).bytes).toBe(0);
  });

  it('the same content twice is one blob, the same one put() names', async () => {
    const a = await store.putStream('t1', chunks(2 * MB), { maxBytes: 10 * MB });
    const b = await store.putStream('t1', chunks(2 * MB, 4096 * 16), { maxBytes: 10 * MB });
    expect(b).toEqual(a);
    const bytes = (await store.get('t1', a.sha256))!;
    expect(await store.put('t1', bytes)).toEqual({ sha256: a.sha256, ref: a.ref });
    expect(filesUnder(root)).toHaveLength(1);
  });

  it('an error of the source is passed on and the temporary file deleted', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield Buffer.alloc(CHUNK, 1);
      yield Buffer.alloc(CHUNK, 2);
      throw new Error('client went away');
    }
    await expect(store.putStream('t1', failing(), { maxBytes: MB })).rejects.toThrow('client went away');
    expect(filesUnder(root)).toEqual([]);
  });

  it('holds no chunks: each is on disk before the next is pulled', async () => {
    const tmpDir = () => {
      const tenant = fs.readdirSync(root)[0];
      return path.join(root, tenant, 'tmp');
    };
    const onDisk: number[] = [];
    async function* watched(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 40; i++) {
        if (i > 0) {
          const [tmp] = fs.readdirSync(tmpDir());
          onDisk.push(fs.statSync(path.join(tmpDir(), tmp)).size);
        }
        yield Buffer.alloc(CHUNK, i);
      }
    }
    await store.putStream('t1', watched(), { maxBytes: 100 * MB });
    expect(onDisk).toEqual(Array.from({ length: 39 }, (_, i) => (i + 1) * CHUNK));
  });

  it('sweeps the temporary file a crashed stream left, without counting it as a blob', async () => {
    const { sha256 } = await store.putStream('t1', chunks(100), { maxBytes: 100 });
    const tmpDir = path.join(path.dirname(path.dirname((await store.pathOf('t1', sha256))!)), 'tmp');
    const leftover = path.join(tmpDir, 'crashed.tmp');
    fs.writeFileSync(leftover, 'half');
    const past = new Date(Date.now() - 10 * 86_400_000);
    fs.utimesSync(leftover, past, past);
    expect(await store.sweep(new Date(Date.now() - 86_400_000))).toBe(0);
    expect(fs.existsSync(leftover)).toBe(false);
    expect(await store.pathOf('t1', sha256)).not.toBeNull();
  });
});
