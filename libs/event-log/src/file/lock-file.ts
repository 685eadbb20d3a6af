import * as fs from 'node:fs';
import * as path from 'node:path';

/** Thrown when another live process (or this one) already holds the log directory. */
export class EventLogLockedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventLogLockedError';
  }
}

/** Directories locked by this process: a LOCK naming our own pid is ours only if listed here
 * (after a container restart, a stale LOCK often carries the pid we have now). */
const heldHere = new Set<string>();

/** Start time of a process in clock ticks since boot (Linux), to tell a reused pid apart. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22; the command name (field 2) is in parentheses and may contain spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(pid: number, startTime: string | null): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // The pid is in use; it is the lock's owner unless its start time says otherwise.
  const now = startTimeOf(pid);
  return startTime === null || now === null || now === startTime;
}

/**
 * `dir/LOCK`, holding "<pid> <start time>". Created with O_EXCL semantics (a link of a
 * complete temp file, so nobody ever sees it half written). A LOCK whose process is dead
 * is taken over. Two processes taking over the same stale lock at the same instant is
 * not guarded against.
 */
export class LockFile {
  private constructor(
    private readonly file: string,
    private readonly content: string,
  ) {}

  static acquire(dir: string): LockFile {
    const file = path.join(dir, 'LOCK');
    const key = path.resolve(file);
    if (heldHere.has(key)) throw new EventLogLockedError(`event log ${dir} is already open in this process (pid ${process.pid})`);
    const content = `${process.pid} ${startTimeOf(process.pid) ?? '-'}\n`;
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, content);
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          fs.linkSync(tmp, file);
          break;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw err;
        }
        const holder = LockFile.holder(file);
        if (holder && holder.pid !== process.pid && isAlive(holder.pid, holder.startTime)) {
          throw new EventLogLockedError(`event log ${dir} is locked by process ${holder.pid} (${file}); stop it first`);
        }
        fs.rmSync(file, { force: true });
      }
    } finally {
      fs.rmSync(tmp, { force: true });
    }
    heldHere.add(key);
    return new LockFile(file, content);
  }

  /** Remove the LOCK if it is still ours. */
  release(): void {
    const key = path.resolve(this.file);
    if (!heldHere.delete(key)) return;
    try {
      if (fs.readFileSync(this.file, 'utf8') === this.content) fs.rmSync(this.file, { force: true });
    } catch {
      // Already gone.
    }
  }

  private static holder(file: string): { pid: number; startTime: string | null } | null {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return null;
    }
    const [pid, start] = text.trim().split(/\s+/);
    const n = Number(pid);
    if (!Number.isInteger(n) || n <= 0) return null;
    return { pid: n, startTime: start && start !== '-' ? start : null };
  }
}
