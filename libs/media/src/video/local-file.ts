/** The one kind of input ffmpeg is given: an existing, non-empty regular file on this machine. */
import { open, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { invalidVideo, videoProcessingFailed } from './video-errors';
import { looksLikeTransportStream } from './video-formats';

/** The absolute path of `file`, checked; a URL, a directory, a device or a FIFO is refused. */
export async function localVideoFile(file: string): Promise<string> {
  if (typeof file !== 'string' || !file.trim() || file.includes('\0')) throw videoProcessingFailed('the video path is empty or not a path');
  // The worker downloads URLs itself (through the egress guard); ffmpeg never fetches.
  if (/^[a-z][a-z0-9+.-]*:/i.test(file) && !path.isAbsolute(file)) throw videoProcessingFailed('the video must be a local file, not a URL');
  const abs = path.resolve(file);
  let info;
  try {
    info = await stat(abs);
  } catch (err) {
    throw videoProcessingFailed(`the video file cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!info.isFile()) throw videoProcessingFailed('the video path is not a regular file');
  if (info.size === 0) throw invalidVideo('the file is empty (0 bytes)');
  return abs;
}

/** Whether the (checked) file is an MPEG-TS, from its first packets; false when unreadable. */
export async function isTransportStream(abs: string): Promise<boolean> {
  try {
    const handle = await open(abs, 'r');
    try {
      const head = Buffer.alloc(600);
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      return looksLikeTransportStream(head.subarray(0, bytesRead));
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}
