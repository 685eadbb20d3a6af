import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');
const FILE = path.join(__dirname, 'openapi.generated.ts');

/** The first line where two texts part, with its neighbours, to say what drifted. */
function firstDifference(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  const i = a.findIndex((line, n) => line !== b[n]);
  const at = i === -1 ? a.length : i;
  const show = (lines: string[]) => lines.slice(Math.max(0, at - 2), at + 3).join('\n');
  return `line ${at + 1}:\n--- generated now\n${show(a)}\n--- committed\n${show(b)}`;
}

/**
 * The SDK's wire types are the service's OpenAPI document now: the committed file is what
 * `npm run sdk:types` generates (run here in a child process, as jest cannot load Nest's
 * ESM build), so a change of an answer or request schema that is not carried to the SDK
 * fails here.
 */
describe('openapi.generated.ts', () => {
  it("is what npm run sdk:types generates from the service's OpenAPI document", () => {
    const run = spawnSync(process.execPath, ['-r', './scripts/train-text/register.js', 'scripts/sdk-types/sdk-types.ts', '--stdout'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    expect({ status: run.status, stderr: run.stderr.slice(-2000) }).toMatchObject({ status: 0 });
    const committed = fs.readFileSync(FILE, 'utf8');
    if (run.stdout !== committed) {
      throw new Error(
        `packages/sdk/src/types/openapi.generated.ts is not what the service's OpenAPI document gives: run \`npm run sdk:types\` and commit the file.\n${firstDifference(run.stdout, committed)}`,
      );
    }
  });
});
