import type { CdsClient } from '../../cds.client';
import type { CliIo } from '../cli.io';
import type { CliCommand } from '../command-line.parser';

type ApplyCommand = Extract<CliCommand, { kind: 'policies-apply' }>;

export async function runPoliciesApply(client: CdsClient, cmd: ApplyCommand, io: CliIo, yaml: string): Promise<number> {
  const policy = await client.savePolicy(cmd.policyId, yaml, { signal: io.signal });
  if (cmd.json) io.out(JSON.stringify(policy, null, 2));
  else {
    const categories = Object.entries(policy.categories).map(([name, c]) => `${name} >= ${c.threshold} ${c.action}`);
    io.out(`applied policy ${policy.policyId} (${JSON.stringify(policy.name)}, version ${policy.version}): ${categories.join(', ') || 'no categories'}`);
  }
  return 0;
}
