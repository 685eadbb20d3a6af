import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The rows of cases/<name>.jsonl (one JSON object a line; what each file holds: cases/README.md). */
export function readCases<T>(name: string): T[] {
  return readFileSync(join(__dirname, 'cases', `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}
