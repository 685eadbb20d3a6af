/** Reads a snapshot's git directory (kept apart from build.ts so that modules build.ts imports can use it without a cycle). */
import { execFileSync } from 'node:child_process';

export function git(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
}
