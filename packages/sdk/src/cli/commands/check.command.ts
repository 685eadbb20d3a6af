import type { CdsClient } from '../../cds.client';
import type { CheckDecision } from '../../types/checks.types';
import type { CliIo } from '../cli.io';
import type { CliCommand } from '../command-line.parser';
import { formatTable } from '../text-table';

type CheckCommand = Extract<CliCommand, { kind: 'check' }>;

export async function runCheck(client: CdsClient, cmd: CheckCommand, io: CliIo): Promise<number> {
  const decision = await client.check(
    { content: cmd.text, policyId: cmd.policyId, ...(cmd.language ? { language: cmd.language } : {}) },
    { signal: io.signal },
  );
  io.out(cmd.json ? JSON.stringify(decision, null, 2) : formatDecision(decision, cmd.policyId));
  return 0;
}

export function formatDecision(d: CheckDecision, policyId: string): string {
  const head = `${d.action}  decision ${d.decisionId}  policy ${policyId}  safe ${d.safe ? 'yes' : 'no'}  flagged ${d.flagged ? 'yes' : 'no'}`;
  const meta = `provider ${d.provider}  latency ${d.latency} ms  cost $${d.cost}`;
  const rows = [...d.categories].sort((a, b) => b.score - a.score).map((c) => [c.category, c.score.toFixed(3), String(c.threshold), c.triggered ? 'yes' : '']);
  return [head, meta, formatTable(['category', 'score', 'threshold', 'triggered'], rows)].join('\n');
}
