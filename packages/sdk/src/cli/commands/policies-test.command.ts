import { randomBytes } from 'node:crypto';
import type { CdsClient } from '../../cds.client';
import { CdsError } from '../../cds.error';
import type { CliIo } from '../cli.io';
import type { CliCommand } from '../command-line.parser';
import { caseLabel, PolicyCase } from '../policy-cases.loader';
import { formatTable } from '../text-table';

type TestCommand = Extract<CliCommand, { kind: 'policies-test' }>;

/**
 * Every case against the policy in the file, without saving it under its own id. Score
 * and signal cases are dry runs of the unsaved YAML. The service cannot check a text
 * under an unsaved policy, so text cases save it under a throwaway id `cli-test-<hex>`
 * first and check against that (those checks are recorded as decisions of that policy).
 * Exit 1 when the policy is invalid or any case gets another action than expected.
 */
export async function runPoliciesTest(client: CdsClient, cmd: TestCommand, io: CliIo, yaml: string, cases: PolicyCase[]): Promise<number> {
  const opts = { signal: io.signal };
  try {
    // Validates the YAML without saving anything; an invalid policy fails the test.
    await client.dryRun({ policy: yaml, mockScores: {} }, opts);
  } catch (err) {
    if (!(err instanceof CdsError) || err.status !== 422) throw err;
    io.err(`policy ${cmd.file} is invalid: ${err.code}: ${err.details || err.error}`);
    return 1;
  }
  let tempPolicyId: string | undefined;
  if (cases.some((c) => 'text' in c)) {
    tempPolicyId = `cli-test-${randomBytes(6).toString('hex')}`;
    await client.savePolicy(tempPolicyId, yaml, opts);
  }

  const rows: string[][] = [];
  let failed = 0;
  for (const [i, c] of cases.entries()) {
    let got: string;
    try {
      if ('text' in c) {
        got = (await client.check({ content: c.text, policyId: tempPolicyId!, ...(c.language ? { language: c.language } : {}) }, opts)).action;
      } else {
        const mock = 'scores' in c ? { mockScores: c.scores } : { mockSignals: c.signals };
        got = (await client.dryRun({ policy: yaml, ...mock }, opts)).action;
      }
    } catch (err) {
      if (!(err instanceof CdsError) || err.status === 0 || err.status >= 500) throw err;
      got = `error ${err.code}`;
    }
    const ok = got === c.expect;
    if (!ok) failed++;
    rows.push([String(i + 1), caseLabel(c), c.expect, got, ok ? 'ok' : 'FAIL']);
  }

  const where = tempPolicyId ? ` (text cases checked under the temporary policy ${tempPolicyId})` : '';
  io.out(`policy ${cmd.file}: ${cases.length} cases${where}`);
  io.out(formatTable(['#', 'case', 'expected', 'got', 'result'], rows));
  io.out(`${cases.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}
