#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { systemClock } from './http.transport';
import { runCli } from './cli/run-cli';

const interrupted = new AbortController();
process.once('SIGINT', () => interrupted.abort(new Error('interrupted')));

runCli(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  readFile: (path) => readFileSync(path, 'utf8'),
  now: () => Date.now(),
  sleep: systemClock.sleep,
  signal: interrupted.signal,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`cds: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 3;
  },
);
