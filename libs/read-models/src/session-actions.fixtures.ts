import { envelope } from '@cds/events';
import { ProjectedEvent } from './read-models.port';

/**
 * Action authorizations of two sessions (and of a key, and a skill vetting under the same
 * token), so the SQLite and Elasticsearch specs hold both adapters to the same answer of
 * `listSessionActions`: the session's actions only, newest first, at most `limit`.
 */
function authorized(
  tenantId: string,
  sessionId: string | null,
  id: string,
  minute: number,
  command: string,
  kind: 'action_authorization' | 'skill_vetting' = 'action_authorization',
) {
  return envelope(
    'guardrail.decided',
    1,
    tenantId,
    id,
    {
      decisionId: id,
      projectId: 'p',
      kind,
      action: 'warn' as const,
      riskScore: 25,
      reasons: ['r'],
      categories: ['sensitive_action'],
      requiresApproval: false,
      request: { actionType: 'exec', command, targetPath: '', requestedPermissions: [] },
      policy: { sensitivePathPrefixes: [], networkAllowlist: [], blockShellPatterns: [], requireApprovalScore: 50 },
      policyOrigin: {},
      decidedBy: sessionId ? `session:${sessionId}` : 'key:k',
      latency: 0.1,
      ...(sessionId ? { session: { sessionId, facts: [{ kind: 'exec', value: 'exec' }] } } : {}),
    },
    new Date(Date.UTC(2026, 10, 28, 10, minute)),
  );
}

const events: Array<[partition: number, event: ProjectedEvent['event']]> = [
  [1, authorized('t1', 's1', 's1-c', 3, 'cat ~/.ssh/id_rsa')],
  [0, authorized('t1', 's1', 's1-a', 1, 'ls')],
  [0, authorized('t1', 's1', 's1-b', 2, 'git status')],
  [0, authorized('t1', 's2', 's2-a', 2, 'ls')],
  [0, authorized('t1', null, 'k-a', 2, 'ls')],
  [0, authorized('t1', 's1', 's1-v', 4, '', 'skill_vetting')],
  [1, authorized('t2', 's1', 'o-a', 5, 'ls')],
];

export function sessionActionBatch(firstOffset: number): ProjectedEvent[] {
  return events.map(([partition, event], k) => ({ topic: 'guardrails', partition, offset: firstOffset + k, event }));
}

/** [tenantId, sessionId, limit, decision ids newest first]. */
export const SESSION_ACTION_CASES: ReadonlyArray<[string, string, number, string[]]> = [
  ['t1', 's1', 10, ['s1-c', 's1-b', 's1-a']],
  ['t1', 's1', 2, ['s1-c', 's1-b']],
  ['t1', 's2', 10, ['s2-a']],
  ['t2', 's1', 10, ['o-a']],
  ['t1', 'none', 10, []],
];

export const SESSION_ACTION_S1_NEWEST = {
  decisionId: 's1-c',
  timestamp: '2026-11-28T10:03:00.000Z',
  actionType: 'exec',
  command: 'cat ~/.ssh/id_rsa',
  targetPath: '',
  categories: ['sensitive_action'],
  facts: [{ kind: 'exec', value: 'exec' }],
};
