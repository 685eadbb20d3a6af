import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker, WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running the typed file `<file>.ts` (`file`: an absolute path without its
 * extension). The service runs the compiled `<file>.js` beside its caller in dist; the test
 * runner and the training scripts run the TypeScript sources, where the same file is
 * compiled on load by the scripts' TypeScript hook (scripts/train-text/register.js).
 */
export function startWorkerFile(file: string, options: WorkerOptions = {}): Worker {
  const compiled = `${file}.js`;
  if (fs.existsSync(compiled)) return new Worker(compiled, options);
  const register = path.resolve(__dirname, '../../../scripts/train-text/register.js');
  return new Worker(`require(${JSON.stringify(register)}); require(${JSON.stringify(`${file}.ts`)});`, { ...options, eval: true });
}
