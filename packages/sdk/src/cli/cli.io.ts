/** What the commands touch outside themselves, so tests can hand in their own. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readFile(path: string): string;
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
}
