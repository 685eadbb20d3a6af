/**
 * One ffmpeg or ffprobe child: no shell, no stdin, a wall-clock deadline (SIGKILL), stderr
 * kept up to a bound. Its end is always awaited (`finished`), so no child outlives its
 * caller and no test waits on a stray pipe; `stop()` kills and awaits in one call.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { PassThrough, Readable } from 'node:stream';
import { tooLargeDetails } from './ffprobe.parser';
import { firstStderrLine, pixelLimitHit } from './ffmpeg-stderr';
import { ffmpegUnavailable, videoProcessingFailed, videoTooLarge } from './video-errors';
import { DomainError } from '@cds/errors';

const MAX_STDERR_CHARS = 8192;

export interface ProcessEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Killed at the deadline. */
  timedOut: boolean;
  /** Could not be started (ENOENT...). */
  spawnError: NodeJS.ErrnoException | null;
  /** The beginning of stderr. */
  stderr: string;
}

export const succeeded = (end: ProcessEnd): boolean => end.code === 0 && !end.timedOut && !end.spawnError;

export interface StartOptions {
  timeoutMs: number;
  /** Open fd 3 as a pipe the child writes to (side channel for per-frame data). */
  sideChannel?: boolean;
}

export class FfmpegProcess {
  readonly stdout: Readable;
  /** fd 3 when asked for; otherwise null. */
  readonly side: Readable | null;
  /** Resolves once the child has exited and its pipes are closed; never rejects. */
  readonly finished: Promise<ProcessEnd>;
  private readonly child: ChildProcess | null;
  private timedOut = false;

  private constructor(
    readonly binary: string,
    args: readonly string[],
    o: StartOptions,
  ) {
    let child: ChildProcess | null = null;
    let spawnError: NodeJS.ErrnoException | null = null;
    try {
      const stdio: ('ignore' | 'pipe')[] = ['ignore', 'pipe', 'pipe', ...(o.sideChannel ? ['pipe' as const] : [])];
      child = spawn(binary, args, { shell: false, stdio, windowsHide: true });
    } catch (err) {
      // spawn throws synchronously on arguments it cannot pass (a NUL byte...).
      spawnError = err as NodeJS.ErrnoException;
    }
    this.child = child;
    if (!child) {
      this.stdout = emptyStream();
      this.side = o.sideChannel ? emptyStream() : null;
      this.finished = Promise.resolve({ code: null, signal: null, timedOut: false, spawnError, stderr: '' });
      return;
    }
    this.stdout = child.stdout!;
    this.side = o.sideChannel ? (child.stdio[3] as Readable) : null;
    // Read errors on our ends of the pipes only mean the child is gone: 'close' reports it.
    this.stdout.on('error', () => undefined);
    this.side?.on('error', () => undefined);
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += chunk.slice(0, MAX_STDERR_CHARS - stderr.length);
    });
    child.stderr!.on('error', () => undefined);

    const timer = setTimeout(
      () => {
        this.timedOut = true;
        this.kill();
      },
      Math.max(1, o.timeoutMs),
    );
    this.finished = new Promise<ProcessEnd>((resolve) => {
      child!.once('error', (err: NodeJS.ErrnoException) => {
        // Not started (ENOENT, EACCES): there will be no exit; 'close' still follows.
        spawnError = err;
      });
      child!.once('close', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, timedOut: this.timedOut, spawnError, stderr });
      });
    });
  }

  static start(binary: string, args: readonly string[], o: StartOptions): FfmpegProcess {
    return new FfmpegProcess(binary, args, o);
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGKILL if still running; resolves once the child is reaped and its pipes closed. */
  async stop(): Promise<ProcessEnd> {
    this.kill();
    // A pipe nobody reads would keep 'close' from ever firing.
    this.stdout.destroy();
    this.side?.destroy();
    return this.finished;
  }

  private kill(): void {
    if (this.running) this.child!.kill('SIGKILL');
  }
}

function emptyStream(): Readable {
  const s = new PassThrough();
  s.end();
  return s;
}

/** Runs to the end, keeping at most maxOutputBytes of stdout (past it: killed, `overflow`). */
export async function runCollect(
  binary: string,
  args: readonly string[],
  o: { timeoutMs: number; maxOutputBytes: number; signal?: AbortSignal },
): Promise<{ stdout: Buffer; overflow: boolean; end: ProcessEnd }> {
  const proc = FfmpegProcess.start(binary, args, { timeoutMs: o.timeoutMs });
  // Aborted (the caller stopped wanting the result): killed and reaped, ending the loop below.
  const abort = () => void proc.stop();
  if (o.signal?.aborted) abort();
  o.signal?.addEventListener('abort', abort, { once: true });
  const chunks: Buffer[] = [];
  let size = 0;
  let overflow = false;
  try {
    for await (const chunk of proc.stdout as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > o.maxOutputBytes) {
        overflow = true;
        break;
      }
      chunks.push(chunk);
    }
  } catch {
    // A read error on the pipe: the child's end (below) and the bytes received tell the rest.
  } finally {
    o.signal?.removeEventListener('abort', abort);
    // After a break the child may still be writing: kill it; otherwise it has ended.
    await (overflow ? proc.stop() : proc.finished);
  }
  return { stdout: Buffer.concat(chunks), overflow, end: await proc.finished };
}

export interface FailureContext {
  tool: 'ffmpeg' | 'ffprobe';
  binary: string;
  /** The absolute path of the input, kept out of details. */
  file: string;
  /** The limit given by the caller, named in "timed out after N ms". */
  timeoutMs: number;
  maxPixels: number;
}

/** Why a run failed, as a DomainError; every failure of a child ends here. */
export function processFailure(end: ProcessEnd, c: FailureContext): DomainError {
  if (end.spawnError) {
    const code = end.spawnError.code ?? end.spawnError.message;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'ENOTDIR')
      return ffmpegUnavailable(`cannot run "${c.binary}" (${code}): install ffmpeg or set FFMPEG_PATH`);
    return videoProcessingFailed(`${c.tool} could not be started (${code})`);
  }
  if (end.timedOut) return videoProcessingFailed(`timed out after ${c.timeoutMs} ms`);
  const refused = pixelLimitHit(end.stderr);
  if (refused) return videoTooLarge(tooLargeDetails(refused.width, refused.height, c.maxPixels));
  const how = end.signal ? `was killed by ${end.signal}` : `exited with code ${end.code}`;
  return videoProcessingFailed(`${c.tool} ${how}: ${firstStderrLine(end.stderr, c.file) || 'no message'}`);
}
