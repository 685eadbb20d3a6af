import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EventEnvelope } from '@cds/events';
import { FileEventLog, FileEventLogOptions } from './file-event-log.adapter';

/** Test helpers of the file event log's integration tests. */

export function event(n: number, extra: Record<string, unknown> = {}): EventEnvelope {
  return {
    id: `evt-${n}`,
    type: 'test.happened',
    version: 1,
    occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n % 60)).toISOString(),
    tenantId: 'tenant-1',
    key: `agg-${n % 7}`,
    data: { n, text: `event number ${n} ✓`, ...extra },
  };
}

export class RecordingLogger {
  readonly warnings: string[] = [];
  readonly infos: string[] = [];
  warn(message: string): void {
    this.warnings.push(message);
  }
  log(message: string): void {
    this.infos.push(message);
  }
}

/** A fresh directory under os.tmpdir(), removed by `cleanup()`. */
export class TempDir {
  readonly path = mkdtempSync(path.join(os.tmpdir(), 'cds-file-log-'));
  private readonly logs: FileEventLog[] = [];

  async open(options: Partial<FileEventLogOptions> = {}): Promise<FileEventLog> {
    const log = await FileEventLog.open({ dir: this.path, logger: new RecordingLogger(), ...options });
    this.logs.push(log);
    return log;
  }

  segmentDir(topic: string): string {
    return path.join(this.path, 'topics', topic);
  }

  async cleanup(): Promise<void> {
    await Promise.all(this.logs.map((l) => l.close()));
    rmSync(this.path, { recursive: true, force: true });
  }
}

/** Resolves when `predicate` holds; re-checked by whoever changes the state it reads. */
export class Condition {
  private waiters: Array<{ check: () => boolean; resolve: () => void }> = [];

  wait(check: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
      this.waiters.push({
        check,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  changed(): void {
    this.waiters = this.waiters.filter((w) => {
      if (!w.check()) return true;
      w.resolve();
      return false;
    });
  }
}
