/** A command line the CLI cannot run: the message says what to change (exit 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
