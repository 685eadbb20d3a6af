import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StoredBlob } from './blob-store.port';
import { FsBlobStore } from './fs-blob-store.adapter';
import { MediaSweeper } from './media-sweeper';

// The service's retention (MediaRetention runs a MediaSweeper of MEDIA_RETENTION_DAYS over
// the FsBlobStore of DATA_DIR/media at start and hourly; the e2e image suite sees it
// happen in the running service) on real files whose last store is backdated.

const DAY_MS = 86_400_000;

function fileOf(root: string, sha256: string): string {
  const hit = fs.readdirSync(root, { recursive: true, withFileTypes: true }).find((e) => e.name === sha256);
  if (!hit) throw new Error(`no file ${sha256} under ${root}`);
  return path.join(hit.parentPath ?? (hit as any).path, hit.name);
}

/** Sets a blob's last store `days` ago, as if it had been checked then and not since. */
function backdate(root: string, blob: StoredBlob, days: number): string {
  const file = fileOf(root, blob.sha256);
  const then = new Date(Date.now() - days * DAY_MS);
  fs.utimesSync(file, then, then);
  return file;
}

const logs: string[] = [];
const logger = { log: (m: string) => logs.push(m), error: (m: string) => logs.push(`error: ${m}`) };

describe('media retention honours MEDIA_RETENTION_DAYS (real files, backdated mtimes)', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-retention-'));
    logs.length = 0;
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  /** Blobs of two tenants, last stored 12 hours and 6, 8 and 40 days ago. */
  async function seed(): Promise<Record<string, string>> {
    const store = new FsBlobStore(root);
    const ages: [string, string, number][] = [
      ['t1', 'twelve hours', 0.5],
      ['t1', 'six days', 6],
      ['t1', 'eight days', 8],
      ['t2', 'forty days', 40],
      ['t2', 'six days too', 6],
    ];
    const files: Record<string, string> = {};
    for (const [tenant, body, days] of ages) files[body] = backdate(root, await store.put(tenant, Buffer.from(body)), days);
    return files;
  }
  const left = (files: Record<string, string>) =>
    Object.entries(files)
      .filter(([, f]) => fs.existsSync(f))
      .map(([body]) => body)
      .sort();

  it('with 7 days, deletes the blobs last stored more than 7 days ago and keeps the newer ones', async () => {
    const files = await seed();
    const store = new FsBlobStore(root, 7);
    const sweeper = new MediaSweeper(store, 7, logger);
    expect(await sweeper.sweep()).toBe(2);
    expect(left(files)).toEqual(['six days', 'six days too', 'twelve hours']);
    expect(logs).toEqual([expect.stringMatching(/^deleted 2 media files stored before /)]);
    expect(await sweeper.sweep()).toBe(0);
  });

  it('the number of days decides: 30 (the default) keeps the eight-day-old blob, 1 deletes it', async () => {
    const files = await seed();
    expect(await new MediaSweeper(new FsBlobStore(root, 30), 30, logger).sweep()).toBe(1);
    expect(left(files)).toEqual(['eight days', 'six days', 'six days too', 'twelve hours']);
    expect(await new MediaSweeper(new FsBlobStore(root, 1), 1, logger).sweep()).toBe(3);
    expect(left(files)).toEqual(['twelve hours']);
  });

  it('a sweep asked for while one runs joins it', async () => {
    await seed();
    const sweeper = new MediaSweeper(new FsBlobStore(root, 7), 7, logger);
    const [a, b] = [sweeper.sweep(), sweeper.sweep()];
    expect(a).toBe(b);
    expect(await a).toBe(2);
  });

  it('a failing sweep is logged and answers 0; the next one runs', async () => {
    let calls = 0;
    const failing = new FsBlobStore(root, 7);
    failing.sweep = async () => {
      calls += 1;
      if (calls === 1) throw new Error('disk gone');
      return 0;
    };
    const sweeper = new MediaSweeper(failing, 7, logger);
    expect(await sweeper.sweep()).toBe(0);
    expect(logs).toEqual(['error: media retention sweep failed: disk gone']);
    expect(await sweeper.sweep()).toBe(0);
    expect(calls).toBe(2);
  });
});

describe('FsBlobStore with a retention: get and pathOf refuse a blob past it, before any sweep', () => {
  let root: string;
  beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-retention-get-'))));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('answers null for a blob last stored 8 days ago under 7 days, the bytes of one stored 6 days ago', async () => {
    const store = new FsBlobStore(root, 7);
    const old = await store.put('t1', Buffer.from('old'));
    const fresh = await store.put('t1', Buffer.from('fresh'));
    const oldFile = backdate(root, old, 8);
    const freshFile = backdate(root, fresh, 6);

    expect(await store.get('t1', old.sha256)).toBeNull();
    expect(await store.pathOf('t1', old.sha256)).toBeNull();
    expect(fs.existsSync(oldFile)).toBe(true);
    expect(await store.get('t1', fresh.sha256)).toEqual(Buffer.from('fresh'));
    expect(await store.pathOf('t1', fresh.sha256)).toBe(freshFile);
    // The same bytes under a longer retention (or none) are still there.
    expect(await new FsBlobStore(root, 30).get('t1', old.sha256)).toEqual(Buffer.from('old'));
    expect(await new FsBlobStore(root).get('t1', old.sha256)).toEqual(Buffer.from('old'));

    // Storing the same bytes again renews them.
    await store.put('t1', Buffer.from('old'));
    expect(await store.get('t1', old.sha256)).toEqual(Buffer.from('old'));
  });
});
