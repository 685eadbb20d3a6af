import { createHash, randomUUID } from 'node:crypto';
import { promises as fs, Stats } from 'node:fs';
import * as path from 'node:path';
import { DomainError } from '@cds/errors';
import { BlobSource, BlobStore, isSha256, mediaRef, PutStreamOptions, retentionCutoff, StoredBlob } from './blob-store.port';

/** Where streamed blobs are written until their hash is known: a shard-like folder of the
 * tenant, so a crashed write's leftover is swept like the others' (`*.tmp`). */
const STREAMING_DIR = 'tmp';

/**
 * Blobs as files under `root` (DATA_DIR/media): `<tenant>/<ab>/<sha256>`, the tenant
 * directory a hash of the tenant id, so a tenant name never shapes a path. Written to a
 * temporary file, fsync'd and renamed, so a reader never sees half a file and a blob a
 * decision names survives a crash. The file's mtime is its last store: retention counts
 * from there: with `retentionDays`, a blob last stored longer ago is refused by get and
 * pathOf even before a sweep deletes it. In distributed mode the api replicas and the
 * worker mount the same volume.
 */
export class FsBlobStore implements BlobStore {
  constructor(
    private readonly root: string,
    private readonly retentionDays?: number,
  ) {}

  async put(tenantId: string, bytes: Buffer): Promise<StoredBlob> {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const file = this.fileOf(tenantId, sha256);
    const now = new Date();
    try {
      await fs.utimes(file, now, now);
      return { sha256, ref: mediaRef(sha256) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomUUID()}.tmp`;
    const handle = await fs.open(tmp, 'w', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
    await syncDir(path.dirname(file));
    return { sha256, ref: mediaRef(sha256) };
  }

  async putStream(tenantId: string, source: BlobSource, o: PutStreamOptions): Promise<StoredBlob & { bytes: number }> {
    if (!Number.isSafeInteger(o.maxBytes) || o.maxBytes < 0) throw new TypeError(`maxBytes must be a non-negative integer, got ${o.maxBytes}`);
    const tenantDir = path.join(this.root, this.tenantDirOf(tenantId));
    const tmpDir = path.join(tenantDir, STREAMING_DIR);
    await fs.mkdir(tmpDir, { recursive: true });
    const tmp = path.join(tmpDir, `${randomUUID()}.tmp`);
    const handle = await fs.open(tmp, 'w', 0o600);
    const hash = createHash('sha256');
    let bytes = 0;
    let kept = false;
    try {
      try {
        // One chunk at a time: the next is pulled only once this one is on its way to disk.
        for await (const chunk of source as AsyncIterable<Uint8Array | string>) {
          const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          bytes += buf.byteLength;
          // Leaving the loop ends the source (return()): a Node stream is destroyed.
          if (bytes > o.maxBytes) throw tooLarge(o);
          hash.update(buf);
          await writeAll(handle, buf);
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      const sha256 = hash.digest('hex');
      const file = this.fileOf(tenantId, sha256);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.rename(tmp, file);
      kept = true;
      await syncDir(path.dirname(file));
      return { sha256, ref: mediaRef(sha256), bytes };
    } finally {
      if (!kept) await fs.rm(tmp, { force: true });
    }
  }

  async pathOf(tenantId: string, sha256: string): Promise<string | null> {
    if (!isSha256(sha256)) return null;
    const file = this.fileOf(tenantId, sha256);
    try {
      return this.kept(await fs.stat(file)) ? file : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async get(tenantId: string, sha256: string): Promise<Buffer | null> {
    const file = await this.pathOf(tenantId, sha256);
    if (!file) return null;
    try {
      return await fs.readFile(file);
    } catch (err) {
      // swept between the stat and the read
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async sweep(cutoff: Date): Promise<number> {
    let removed = 0;
    for (const tenant of await list(this.root)) {
      for (const shard of await list(path.join(this.root, tenant))) {
        const dir = path.join(this.root, tenant, shard);
        for (const name of await list(dir)) {
          const file = path.join(dir, name);
          const stat = await fs.stat(file).catch(() => null);
          // Leftover temporary files of a crashed write go too.
          if (stat && stat.mtime < cutoff) {
            await fs.rm(file, { force: true });
            if (!name.endsWith('.tmp')) removed += 1;
          }
        }
      }
    }
    return removed;
  }

  /** A file, not past retention (not yet swept, but no longer to be served). */
  private kept(stat: Stats): boolean {
    return stat.isFile() && (this.retentionDays === undefined || stat.mtime >= retentionCutoff(this.retentionDays));
  }

  private fileOf(tenantId: string, sha256: string): string {
    return path.join(this.root, this.tenantDirOf(tenantId), sha256.slice(0, 2), sha256);
  }

  private tenantDirOf(tenantId: string): string {
    return createHash('sha256').update(tenantId).digest('hex').slice(0, 32);
  }
}

async function list(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw err;
  }
}

function tooLarge(o: PutStreamOptions): DomainError {
  return new DomainError('too_large', o.tooLargeCode ?? 'VIDEO_TOO_LARGE', 'File too large', `the file exceeds the limit of ${o.maxBytes} bytes`);
}

async function writeAll(handle: fs.FileHandle, buf: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < buf.byteLength) {
    const { bytesWritten } = await handle.write(buf, offset, buf.byteLength - offset);
    offset += bytesWritten;
  }
}

async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
