import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

/**
 * The compiled validation fast path answers exactly as the full ValidationPipe, on every
 * DTO of the api (scripts/checks/validation-equivalence.ts, run on the build: jest cannot
 * load Nest's ESM build itself).
 */
describe('compiled validation', () => {
  const script = path.resolve(__dirname, '../../../../dist/scripts/checks/validation-equivalence.js');
  const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 120_000 });

  it('gives the same value or the same error as the full pipe for every body tried', () => {
    expect({ status: run.status, stdout: run.stdout.slice(-2000), stderr: run.stderr.slice(-2000) }).toMatchObject({ status: 0 });
  });

  it('is used by the hot path and accepts its valid bodies', () => {
    const report = JSON.parse(run.stdout) as Record<string, { compiled: boolean; bodies: number; accepted: number; fastAccepted: number }>;
    expect(Object.keys(report).length).toBeGreaterThan(15);
    for (const dto of ['CheckRequestDto', 'BatchItemDto', 'CreateKeyDto', 'DryRunRequestDto']) {
      expect(report[dto]).toMatchObject({ compiled: true });
      expect(report[dto].accepted).toBeGreaterThan(10);
    }
    // Every valid check body but those a nested `toString`-like key sends to the full path.
    expect(report.CheckRequestDto.fastAccepted).toBeGreaterThanOrEqual(report.CheckRequestDto.accepted * 0.8);
  });
});
