import { ConfigError } from './app-config';

/** Runs a process's main: a configuration error exits 2 with its message, anything else 1. */
export function runMain(main: () => Promise<void>): void {
  main().catch((err) => {
    if (err instanceof ConfigError) console.error(err.message);
    else console.error(err);
    process.exit(err instanceof ConfigError ? 2 : 1);
  });
}
