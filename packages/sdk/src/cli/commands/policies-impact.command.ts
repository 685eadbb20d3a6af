import type { CdsClient } from '../../cds.client';
import type { PolicyImpact } from '../../types/policies.types';
import type { CliIo } from '../cli.io';
import type { CliCommand } from '../command-line.parser';
import { formatTable } from '../text-table';

type ImpactCommand = Extract<CliCommand, { kind: 'policies-impact' }>;

export async function runPoliciesImpact(client: CdsClient, cmd: ImpactCommand, io: CliIo, yaml: string): Promise<number> {
  const from = new Date(io.now() - cmd.sinceMs).toISOString();
  const report = await client.policyImpact(
    cmd.policyId,
    { yamlContent: yaml, from, ...(cmd.limit !== undefined ? { limit: cmd.limit } : {}) },
    { signal: io.signal },
  );
  io.out(cmd.json ? JSON.stringify(report, null, 2) : formatImpact(report, cmd.file));
  return 0;
}

export function formatImpact(r: PolicyImpact, file: string): string {
  const candidate = `${JSON.stringify(r.candidate.name)}${r.candidate.version !== undefined ? ` version ${r.candidate.version}` : ''}`;
  const w = r.window;
  const lines = [
    `policy ${r.policyId} -> ${file} (${candidate})`,
    `window ${w.from ?? 'start'} .. ${w.to ?? 'now'}: ${r.evaluated} decisions evaluated` +
      (w.cut ? ` (cut at the limit of ${w.limit}: more were in the window)` : ''),
    `unchanged ${r.unchanged}, changed ${r.changed}`,
  ];
  if (r.changes.length > 0) {
    const rows = r.changes.map((c) => [
      `${c.from} -> ${c.to}`,
      String(c.count),
      c.categories.map((k) => `${k.category} ${k.count}`).join(', '),
      c.sampleDecisionIds.join(', '),
    ]);
    lines.push(formatTable(['change', 'count', 'driven by', 'sample decisions'], rows));
  }
  const actions = (m: Record<string, number>) =>
    Object.entries(m)
      .map(([a, n]) => `${a} ${n}`)
      .join(', ');
  lines.push(`before: ${actions(r.actions.before)}`, `after:  ${actions(r.actions.after)}`);
  return lines.join('\n');
}
