import { envelope } from '@cds/events';
import { ProjectedEvent } from './read-models.port';

/**
 * Skill vettings and the pin each (tenant, project, skill) must answer, so the SQLite and
 * Elasticsearch specs hold both adapters to the same rule: the newest vetting that did not
 * require approval, else the first vetting. Events are on two partitions and out of time
 * order within the batch, as a rebuild may apply them.
 */
function vetted(
  tenantId: string,
  projectId: string | null,
  skillId: string | null,
  id: string,
  minute: number,
  requiresApproval: boolean,
): ProjectedEvent['event'] {
  return envelope(
    'guardrail.decided',
    1,
    tenantId,
    id,
    {
      decisionId: id,
      projectId,
      kind: 'skill_vetting' as const,
      action: requiresApproval ? ('flag' as const) : ('allow' as const),
      riskScore: requiresApproval ? 60 : 0,
      reasons: [],
      categories: [],
      requiresApproval,
      request: { skillId: skillId ?? 'legacy', prompt: `prompt ${id}`, requestedPermissions: ['read_file'] },
      policy: { sensitivePathPrefixes: [], networkAllowlist: [], blockShellPatterns: [], requireApprovalScore: 50 },
      policyOrigin: {},
      decidedBy: 'key:k',
      latency: 0.1,
      ...(skillId === null ? {} : { skill: { skillId, contentHash: `sha256:${id}` } }),
    },
    new Date(Date.UTC(2026, 10, 28, 10, minute)),
  );
}

const events: Array<[partition: number, event: ProjectedEvent['event']]> = [
  [1, vetted('t1', 'p', 'sk-a', 'a-3', 3, true)], // changed since, flagged: not the pin
  [0, vetted('t1', 'p', 'sk-a', 'a-1', 1, true)], // first vetting, approval required
  [0, vetted('t1', 'p', 'sk-a', 'a-2', 2, false)], // accepted: the pin
  [1, vetted('t1', 'p', 'sk-b', 'b-2', 2, true)],
  [0, vetted('t1', 'p', 'sk-b', 'b-1', 1, true)], // never accepted: the first is the pin
  [0, vetted('t1', null, 'sk-a', 'n-1', 1, true)], // no project: its own pin
  [0, vetted('t2', 'p', 'sk-a', 'o-1', 1, false)], // another tenant
  [0, vetted('t1', 'p', null, 'l-1', 0, false)], // before pinning: no skill on the event
];

export function skillPinBatch(firstOffset: number): ProjectedEvent[] {
  return events.map(([partition, event], k) => ({ topic: 'guardrails', partition, offset: firstOffset + k, event }));
}

/** [tenantId, projectId, skillId, decisionId of the pin or null]. */
export const SKILL_PIN_CASES: ReadonlyArray<[string, string | null, string, string | null]> = [
  ['t1', 'p', 'sk-a', 'a-2'],
  ['t1', 'p', 'sk-b', 'b-1'],
  ['t1', null, 'sk-a', 'n-1'],
  ['t2', 'p', 'sk-a', 'o-1'],
  ['t2', 'p', 'sk-b', null],
  ['t1', 'q', 'sk-a', null],
  ['t1', 'p', 'legacy', null],
];
