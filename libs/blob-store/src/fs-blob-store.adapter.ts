import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { BlobStore, isSha256, mediaRef, StoredBlob } from './blob-store.port';

/**
 * Blobs as files under `root` (DATA_DIR/media): `<tenant>/<ab>/<sha256>`, the tenant
 * directory a hash of the tenant id, so a tenant name never shapes a path. Written to a
 * temporary file, fsync'd and renamed, so a reader never sees half a file and a blob a
 * decision names survives a crash. The file's mtime is its last store: retention counts
 * from there. In distributed mode the api replicas and the worker mount the same volume.
 */
export class FsBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

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

  async get(tenantId: string, sha256: string): Promise<Buffer | null> {
    if (!isSha256(sha256)) return null;
    try {
      return await fs.readFile(this.fileOf(tenantId, sha256));
    } catch (err) {
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

  private fileOf(tenantId: string, sha256: string): string {
    const tenantDir = createHash('sha256').update(tenantId).digest('hex').slice(0, 32);
    return path.join(this.root, tenantDir, sha256.slice(0, 2), sha256);
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

async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
