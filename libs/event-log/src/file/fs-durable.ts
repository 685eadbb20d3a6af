import { FileHandle, mkdir, open, rename } from 'node:fs/promises';
import * as path from 'node:path';

/** fsync a directory, so the entries created or renamed in it survive a crash. */
export async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** mkdir -p, then fsync the new directory's parents so it survives a crash. */
export async function ensureDir(dir: string): Promise<void> {
  const created = await mkdir(dir, { recursive: true });
  if (created === undefined) return;
  // `created` is the first directory made; sync it and every parent up to the one that existed.
  for (let d = dir; ; d = path.dirname(d)) {
    await syncDir(path.dirname(d));
    if (path.resolve(d) === path.resolve(created) || path.dirname(d) === d) break;
  }
}

/** Write all of `buffers` at `position`, however many calls it takes. */
export async function writeFully(fh: FileHandle, buffers: Buffer[], position: number): Promise<number> {
  const total = buffers.reduce((n, b) => n + b.length, 0);
  let written = (await fh.writev(buffers, position)).bytesWritten;
  if (written < total) {
    const rest = Buffer.concat(buffers).subarray(written);
    while (written < total) {
      const { bytesWritten } = await fh.write(rest, written - (total - rest.length), total - written, position + written);
      written += bytesWritten;
    }
  }
  return total;
}

/** Replace `file` atomically and durably: temp file, fsync, rename, fsync the directory. */
export async function writeFileAtomic(file: string, data: string): Promise<void> {
  const tmp = `${file}.tmp`;
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(data, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, file);
  await syncDir(path.dirname(file));
}
