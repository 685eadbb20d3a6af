/** The Project guardrail policy of the spec, the built-in fallback and the precedence rule. */
import type { SystemZonesPolicy } from './rules/system-zones';
import type { SessionRule } from './session/session-rules';

export type { SystemZonesPolicy } from './rules/system-zones';
export type { SessionRule, SessionRuleStep } from './session/session-rules';

export interface ProjectGuardrailPolicy {
  /** Path prefixes treated as sensitive; `~/` means any user's home (see GUARDRAILS.md). */
  sensitivePathPrefixes: string[];
  /** Hosts that may be contacted: `host`, `*.domain` (subdomains only) or `*` (any host). */
  networkAllowlist: string[];
  /** Glob patterns (`*`, `?`, `[...]`) matched case-insensitively against each normalized command. */
  blockShellPatterns: string[];
  /** riskScore at or above which a decision requires approval (0-100). */
  requireApprovalScore: number;
  /** Optional (not one of the spec's four fields): widens or narrows the built-in system zones. */
  systemZones?: SystemZonesPolicy;
  /** Optional (not one of the spec's four fields): sequences of a session's actions to flag or block. */
  sessionRules?: SessionRule[];
}

/** An inline request policy: any subset of the fields; the missing ones come from the next level. */
export type GuardrailPolicyOverride = Partial<ProjectGuardrailPolicy>;

export type PolicyLevel = 'request' | 'project' | 'default';

export interface ResolvedGuardrailPolicy {
  policy: ProjectGuardrailPolicy;
  /** Which level each field was taken from, for the decision record. */
  origin: Partial<Record<keyof ProjectGuardrailPolicy, PolicyLevel>>;
}

/** Built-in fallback used when neither the request nor the project sets a field. */
export const DEFAULT_GUARDRAIL_POLICY: Readonly<ProjectGuardrailPolicy> = Object.freeze({
  sensitivePathPrefixes: [
    '/etc',
    '/root',
    '/proc/self/environ',
    '/run/docker.sock',
    '/var/run/docker.sock',
    '~/.ssh',
    '~/.aws',
    '~/.azure',
    '~/.config/gcloud',
    '~/.kube',
    '~/.docker',
    '~/.gnupg',
    '~/.netrc',
    '~/.git-credentials',
    '~/.npmrc',
    '~/.pypirc',
    '~/.bash_history',
    '~/.zsh_history',
    '~/.bashrc',
    '~/.bash_profile',
    '~/.profile',
    '~/.zshrc',
  ],
  networkAllowlist: ['registry.npmjs.org', 'registry.yarnpkg.com', 'pypi.org', 'files.pythonhosted.org', 'github.com', 'api.github.com', 'codeload.github.com'],
  // `--force*` also covers --force-with-lease / --force-if-includes; `+*` is a forced refspec (`git push origin +main`).
  blockShellPatterns: ['git push* --force*', 'git push* -f', 'git push* -f *', 'git push* +*', 'terraform destroy', 'kubectl delete namespace*'],
  requireApprovalScore: 50,
});

const FIELDS: readonly (keyof ProjectGuardrailPolicy)[] = ['sensitivePathPrefixes', 'networkAllowlist', 'blockShellPatterns', 'requireApprovalScore'];
/** Our own optional fields: taken from the request, else the project; absent means the built-in behaviour. */
const OPTIONAL_FIELDS: readonly (keyof ProjectGuardrailPolicy)[] = ['systemZones', 'sessionRules'];

/**
 * Spec precedence: the policy on the request, else the project's, else the defaults.
 * Applied per field, so a request policy replaces whatever it names and the fields it
 * leaves out come from the project policy (or the defaults when the project has none).
 * Lists are replaced, never concatenated: a request can therefore narrow or widen the
 * project policy, which is why only callers allowed to act on the project may send one.
 */
export function resolvePolicyWithOrigin(
  requestPolicy?: GuardrailPolicyOverride | null,
  projectPolicy?: ProjectGuardrailPolicy | null,
): ResolvedGuardrailPolicy {
  if (requestPolicy) return resolveFields(requestPolicy, projectPolicy);
  // Without a request policy the answer depends on the project policy object alone: it is
  // resolved once per object and shared, frozen, so compilePolicy's cache keeps its form.
  if (!projectPolicy) return (resolvedDefaults ??= frozen(resolveFields(null, null)));
  let resolved = resolvedOfProject.get(projectPolicy);
  if (!resolved) resolvedOfProject.set(projectPolicy, (resolved = frozen(resolveFields(null, projectPolicy))));
  return resolved;
}

const resolvedOfProject = new WeakMap<ProjectGuardrailPolicy, ResolvedGuardrailPolicy>();
let resolvedDefaults: ResolvedGuardrailPolicy | null = null;

function frozen(r: ResolvedGuardrailPolicy): ResolvedGuardrailPolicy {
  Object.freeze(r.policy.sensitivePathPrefixes);
  Object.freeze(r.policy.networkAllowlist);
  Object.freeze(r.policy.blockShellPatterns);
  if (r.policy.systemZones) Object.freeze(r.policy.systemZones);
  if (r.policy.sessionRules) Object.freeze(r.policy.sessionRules);
  return Object.freeze({ policy: Object.freeze(r.policy), origin: Object.freeze(r.origin) });
}

function resolveFields(
  requestPolicy: GuardrailPolicyOverride | null | undefined,
  projectPolicy: ProjectGuardrailPolicy | null | undefined,
): ResolvedGuardrailPolicy {
  const policy = {} as Record<keyof ProjectGuardrailPolicy, unknown>;
  const origin: Partial<Record<keyof ProjectGuardrailPolicy, PolicyLevel>> = {};
  for (const field of OPTIONAL_FIELDS) {
    if (requestPolicy?.[field] !== undefined) {
      policy[field] = requestPolicy[field];
      origin[field] = 'request';
    } else if (projectPolicy?.[field] !== undefined) {
      policy[field] = projectPolicy[field];
      origin[field] = 'project';
    }
  }
  for (const field of FIELDS) {
    if (requestPolicy && requestPolicy[field] !== undefined) {
      policy[field] = requestPolicy[field];
      origin[field] = 'request';
    } else if (projectPolicy && projectPolicy[field] !== undefined) {
      policy[field] = projectPolicy[field];
      origin[field] = 'project';
    } else {
      policy[field] = DEFAULT_GUARDRAIL_POLICY[field];
      origin[field] = 'default';
    }
  }
  return { policy: clonePolicy(policy as unknown as ProjectGuardrailPolicy), origin };
}

export function resolvePolicy(requestPolicy?: GuardrailPolicyOverride | null, projectPolicy?: ProjectGuardrailPolicy | null): ProjectGuardrailPolicy {
  return resolvePolicyWithOrigin(requestPolicy, projectPolicy).policy;
}

/** A deep copy holding the policy's fields and nothing else (what is stored on the log). */
export function clonePolicy(p: ProjectGuardrailPolicy): ProjectGuardrailPolicy {
  return {
    sensitivePathPrefixes: [...p.sensitivePathPrefixes],
    networkAllowlist: [...p.networkAllowlist],
    blockShellPatterns: [...p.blockShellPatterns],
    requireApprovalScore: p.requireApprovalScore,
    ...(p.systemZones ? { systemZones: { add: [...p.systemZones.add], exempt: [...p.systemZones.exempt] } } : {}),
    ...(p.sessionRules ? { sessionRules: p.sessionRules.map((r) => ({ ...r, steps: r.steps.map((s) => ({ ...s })) })) } : {}),
  };
}
