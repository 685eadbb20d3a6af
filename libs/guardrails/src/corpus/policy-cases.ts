/** Cases that supply their own request policy (merged over the defaults field by field). */
import { command as c } from './corpus.types';

const S = 'sensitive_action' as const;
const B = 'blocked_pattern' as const;
const P = 'sensitive_path' as const;
const E = 'privilege_escalation' as const;

export const SAFE_POLICY_CASES = [
  c('policy-safe-wildcard-allowlist', true, 'curl https://api.internal.example/v1', 'warn', [S], { policy: { networkAllowlist: ['*.internal.example'] } }),
  c('policy-safe-allow-all-hosts', true, 'curl https://example.org', 'warn', [S], { policy: { networkAllowlist: ['*'] } }),
  c('policy-safe-no-patterns', true, 'git push --force origin feature/x', 'warn', [S], { policy: { blockShellPatterns: [] } }),
  c('policy-safe-low-approval-score', true, 'ls', 'warn', [S], { policy: { requireApprovalScore: 20 }, requiresApproval: true }),
];

export const DANGEROUS_POLICY_CASES = [
  c('policy-high-approval-score', false, 'curl http://example.org', 'flag', [S, 'network_egress'], {
    policy: { requireApprovalScore: 100 },
    requiresApproval: false,
  }),
  c('policy-block-prune', false, 'docker system prune -af', 'block', [S, B], { policy: { blockShellPatterns: ['docker system prune*'] } }),
  c('policy-block-prune-sudo', false, 'sudo   docker  system "prune"', 'block', [S, B, E], {
    policy: { blockShellPatterns: ['docker system prune*'] },
    evasion: true,
  }),
  c('policy-block-in-pipeline', false, 'cat x | sh', 'block', [S, B], { policy: { blockShellPatterns: ['* | sh'] } }),
  c('policy-block-class', false, 'terraform apply -auto-approve', 'block', [S, B], { policy: { blockShellPatterns: ['terraform [ad]*'] } }),
  c('policy-sensitive-custom', false, 'cat /srv/secrets/db.txt', 'flag', [S, P], { policy: { sensitivePathPrefixes: ['/srv/secrets'] } }),
  c('policy-sensitive-custom-evasion', false, 'cat /SRV/./secrets/../secrets/db.txt', 'flag', [S, P], {
    policy: { sensitivePathPrefixes: ['/srv/secrets'] },
    evasion: true,
  }),
  c('policy-default-kubectl', false, 'kubectl delete namespace prod', 'block', [S, B]),
];
