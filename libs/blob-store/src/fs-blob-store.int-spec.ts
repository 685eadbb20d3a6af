import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseMediaRef } from './blob-store.port';
import { FsBlobStore } from './fs-blob-store.adapter';

describe('FsBlobStore (real files)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-blobs-'));
  const store = new FsBlobStore(root);
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('stores content-addressed, per tenant, and reads back', async () => {
    const bytes = Buffer.from('an image, say');
    const sha = createHash('sha256').update(bytes).digest('hex');
    const stored = await store.put('t1', bytes);
    expect(stored).toEqual({ sha256: sha, ref: `media:sha256:${sha}` });
    expect(parseMediaRef(stored.ref)).toBe(sha);
    expect(await store.get('t1', sha)).toEqual(bytes);
    expect(await store.get('t2', sha)).toBeNull();
    expect(await store.get('t1', '../../etc/passwd')).toBeNull();
    expect(await store.put('t1', bytes)).toEqual(stored);
  });

  it('sweeps what was last stored before the cutoff; storing again renews', async () => {
    const old = await store.put('t1', Buffer.from('old'));
    const renewed = await store.put('t1', Buffer.from('renewed'));
    const past = new Date(Date.now() - 10 * 86_400_000);
    for (const b of [old, renewed]) {
      const file = fs.readdirSync(root, { recursive: true, withFileTypes: true }).find((e) => e.name === b.sha256)!;
      fs.utimesSync(path.join(file.parentPath ?? (file as any).path, file.name), past, past);
    }
    await store.put('t1', Buffer.from('renewed'));
    const removed = await store.sweep(new Date(Date.now() - 86_400_000));
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await store.get('t1', old.sha256)).toBeNull();
    expect(await store.get('t1', renewed.sha256)).toEqual(Buffer.from('renewed'));
  });

  it('refuses references that are not sha256', () => {
    expect(parseMediaRef('media:sha256:abc')).toBeNull();
    expect(parseMediaRef('https://x/y.png')).toBeNull();
  });
});
