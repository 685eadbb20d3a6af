import { spawn } from 'child_process';
import { OcrError, OcrTimeoutError, OcrUnavailableError } from './ocr.errors';

export interface BoundedRun {
  stdout: Buffer;
  /** stdout went past maxOutputBytes: the process was killed and stdout holds the first bytes */
  truncated: boolean;
  stderr: string;
  ms: number;
}

export interface BoundedRunOptions {
  input?: Buffer;
  timeoutMs: number;
  maxOutputBytes: number;
  env?: NodeJS.ProcessEnv;
}

const MAX_STDERR_BYTES = 4096;

/**
 * Runs a binary without a shell, feeding `input` on stdin, under a wall-clock deadline
 * (SIGKILL, then OcrTimeoutError) and a cap on stdout (SIGKILL once reached; the run
 * resolves with what came before it). A binary that cannot be started rejects with
 * OcrUnavailableError, a non-zero exit with OcrError OCR_FAILED naming stderr.
 */
export function runBounded(binary: string, args: readonly string[], o: BoundedRunOptions): Promise<BoundedRun> {
  if (!(o.timeoutMs > 0) || !Number.isFinite(o.timeoutMs)) return Promise.reject(new RangeError(`timeoutMs must be > 0, got ${o.timeoutMs}`));
  return new Promise<BoundedRun>((resolve, reject) => {
    const started = performance.now();
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let truncated = false;
    let stderr = '';
    let settled = false;
    const finish = (err: Error | null, run?: BoundedRun) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(run!);
    };

    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(binary, args, { shell: false, stdio: ['pipe', 'pipe', 'pipe'], env: o.env ?? process.env, windowsHide: true });
    } catch (err) {
      reject(new OcrUnavailableError(`cannot run "${binary}": ${(err as Error).message}`));
      return;
    }
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const timer = setTimeout(() => {
      kill();
      finish(new OcrTimeoutError(o.timeoutMs));
    }, o.timeoutMs);

    child.on('error', (err: NodeJS.ErrnoException) => {
      kill();
      if (err.code === 'ENOENT' || err.code === 'EACCES' || err.code === 'ENOTDIR') {
        finish(new OcrUnavailableError(`cannot run "${binary}" (${err.code}): install tesseract-ocr or set TESSERACT_PATH`));
      } else {
        finish(new OcrError('OCR_FAILED', `"${binary}" failed: ${err.message}`));
      }
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      if (truncated) return;
      const room = o.maxOutputBytes - stdoutBytes;
      if (chunk.length > room) {
        stdout.push(chunk.subarray(0, room));
        stdoutBytes += room;
        truncated = true;
        kill();
        return;
      }
      stdout.push(chunk);
      stdoutBytes += chunk.length;
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR_BYTES) stderr += chunk.toString('utf8', 0, MAX_STDERR_BYTES - stderr.length);
    });
    child.on('close', (code, signal) => {
      const run = { stdout: Buffer.concat(stdout), truncated, stderr, ms: Math.round(performance.now() - started) };
      if (truncated || code === 0) finish(null, run);
      else finish(new OcrError('OCR_FAILED', `"${binary}" exited with ${signal ?? `code ${code}`}: ${stderr.trim().slice(-500) || 'no message'}`));
    });
    // The process may exit before reading all its input (a bad image, a kill): not an error of its own.
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(o.input ?? Buffer.alloc(0));
  });
}
