/**
 * Every closed set of values the guardrail API accepts or returns. The spec leaves
 * these open; GUARDRAILS.md documents them. A value outside a set is rejected with
 * UNKNOWN_GUARDRAIL_VALUE (422) instead of being guessed at.
 */

/** Outcome of a guardrail decision, in increasing severity. */
export const GUARDRAIL_ACTIONS = ['allow', 'warn', 'flag', 'block'] as const;
export type GuardrailAction = (typeof GUARDRAIL_ACTIONS)[number];

/** Where a skill comes from. Points are added to the risk score (category marketplace_source). */
export const SKILL_SOURCES = {
  official: { points: 0, label: 'is the official first-party catalogue' },
  verified_publisher: { points: 0, label: 'is a verified publisher' },
  internal: { points: 0, label: "is the organisation's own registry" },
  local: { points: 0, label: 'is a local file on the developer machine' },
  github: { points: 15, label: 'is a GitHub repository (unreviewed third party)' },
  public_marketplace: { points: 20, label: 'is a public marketplace (unreviewed third party)' },
  unknown: { points: 30, label: 'is unknown, so nobody vouches for the skill' },
} as const;
export type SkillSource = keyof typeof SKILL_SOURCES;

/** What is known about a skill's maintainer (category low_reputation). */
export const MAINTAINER_REPUTATIONS = {
  trusted: { points: 0 },
  established: { points: 0 },
  new: { points: 10 },
  unknown: { points: 15 },
  low: { points: 25 },
} as const;
export type MaintainerReputation = keyof typeof MAINTAINER_REPUTATIONS;

/** A permission a skill or action may request. `points` > 0 marks the high-privilege subset. */
export const PERMISSIONS = {
  read_file: { points: 0, label: 'read files in the workspace' },
  list_files: { points: 0, label: 'list files in the workspace' },
  write_file: { points: 0, label: 'write files in the workspace' },
  clipboard_access: { points: 0, label: 'read and write the clipboard' },
  send_message: { points: 5, label: 'send chat messages' },
  network_access: { points: 10, label: 'make network requests' },
  env_access: { points: 10, label: 'read environment variables' },
  browser_control: { points: 10, label: 'drive a web browser' },
  send_email: { points: 10, label: 'send email' },
  git_push: { points: 10, label: 'push to git remotes' },
  spawn_agents: { points: 10, label: 'start other agents' },
  screen_capture: { points: 10, label: 'capture the screen' },
  delete_file: { points: 15, label: 'delete files' },
  install_packages: { points: 15, label: 'install packages' },
  write_outside_workspace: { points: 20, label: 'write files outside the workspace' },
  run_shell: { points: 25, label: 'run shell commands' },
  secrets_access: { points: 25, label: 'read secrets and credentials' },
  elevated_privileges: { points: 30, label: 'run with root or administrator rights' },
} as const;
export type Permission = keyof typeof PERMISSIONS;

export const HIGH_PRIVILEGE_PERMISSIONS = (Object.keys(PERMISSIONS) as Permission[]).filter((p) => PERMISSIONS[p].points > 0);

/**
 * Runtime action types. `points` > 0 marks a type that is sensitive by default
 * (category sensitive_action); `implies` lists the permissions the action needs
 * anyway, which are therefore not scored again when requested alongside it.
 */
export const ACTION_TYPES = {
  exec: { points: 25, implies: ['run_shell'], label: 'executes a program' },
  shell: { points: 25, implies: ['run_shell'], label: 'runs a shell command' },
  code_eval: { points: 25, implies: ['run_shell'], label: 'evaluates generated code' },
  file_read: { points: 0, implies: ['read_file', 'list_files'], label: 'reads a file' },
  file_write: { points: 0, implies: ['write_file'], label: 'writes a file' },
  file_delete: { points: 30, implies: ['delete_file', 'write_file'], label: 'deletes a file' },
  network_request: { points: 0, implies: ['network_access'], label: 'makes a network request' },
  http_request: { points: 0, implies: ['network_access'], label: 'makes an HTTP request' },
  browser: { points: 0, implies: ['browser_control', 'network_access'], label: 'drives a browser' },
  database_query: { points: 0, implies: [], label: 'queries a database' },
  install_package: { points: 25, implies: ['install_packages', 'network_access'], label: 'installs a package' },
  git_push: { points: 25, implies: ['git_push', 'network_access'], label: 'pushes to a git remote' },
  send_email: { points: 25, implies: ['send_email'], label: 'sends email' },
  spawn_agent: { points: 25, implies: ['spawn_agents'], label: 'starts another agent' },
  deploy: { points: 30, implies: ['network_access'], label: 'deploys software' },
  secret_access: { points: 50, implies: ['secrets_access', 'env_access'], label: 'reads a secret' },
} as const satisfies Record<string, { points: number; implies: readonly Permission[]; label: string }>;
export type ActionType = keyof typeof ACTION_TYPES;

export const SENSITIVE_ACTION_TYPES = (Object.keys(ACTION_TYPES) as ActionType[]).filter((t) => ACTION_TYPES[t].points > 0);

/** Action types whose targetPath may be a URL rather than a file path. */
export const NETWORK_ACTION_TYPES: readonly ActionType[] = ['network_request', 'http_request', 'browser'];

/**
 * Every category a verdict may carry, with its meaning and the most it can add to a
 * risk score (so many small findings of one kind cannot snowball on their own).
 */
export const GUARDRAIL_CATEGORIES = {
  marketplace_source: { cap: 30, meaning: 'skill comes from a public marketplace, GitHub or an unknown source' },
  high_privilege_permission: { cap: 60, meaning: 'a high-privilege permission is requested' },
  integrity_unverified: { cap: 15, meaning: 'skill has no checksum, so its content cannot be verified' },
  unsigned_publisher: { cap: 10, meaning: 'skill publisher is not signed' },
  low_reputation: { cap: 25, meaning: 'maintainer reputation is new, low or unknown' },
  prompt_injection: { cap: 100, meaning: 'skill prompt text tries to steer, hide from or exfiltrate via the agent' },
  sensitive_action: { cap: 50, meaning: 'action type is sensitive by default' },
  dangerous_command: { cap: 100, meaning: 'command matches a built-in dangerous pattern' },
  blocked_pattern: { cap: 100, meaning: 'command matches a policy blockShellPatterns entry' },
  sensitive_path: { cap: 60, meaning: 'a path under sensitivePathPrefixes or a credential file is touched' },
  path_traversal: { cap: 30, meaning: 'a path climbs out of its directory with .. or hides it with URL encoding' },
  network_egress: { cap: 50, meaning: 'a network host outside networkAllowlist is contacted' },
  privilege_escalation: { cap: 20, meaning: 'command runs through sudo, doas, su or pkexec' },
  obfuscated_command: { cap: 40, meaning: 'command hides what it runs or is too complex to analyse fully' },
  system_change: {
    cap: 100,
    meaning: 'a system zone is written, deleted, emptied, mounted or has its permissions changed; user accounts or the kernel are changed',
  },
  process_control: { cap: 100, meaning: 'system processes or services are killed or stopped' },
  skill_changed: { cap: 50, meaning: 'the skill prompt or permissions changed since the skill was vetted' },
  session_sequence: { cap: 100, meaning: 'with what the same session did before, the action completes a dangerous sequence' },
} as const;
export type GuardrailCategory = keyof typeof GUARDRAIL_CATEGORIES;

/**
 * Caps over several categories. Who published a skill and what it asks for can make it
 * need approval, but only evidence in the content (prompt injection, dangerous
 * commands, egress, forced blocks) can push a decision into `block`.
 */
export const GUARDRAIL_CATEGORY_GROUPS = {
  provenance_and_privilege: {
    cap: 75,
    categories: [
      'marketplace_source',
      'integrity_unverified',
      'unsigned_publisher',
      'low_reputation',
      'high_privilege_permission',
    ] as readonly GuardrailCategory[],
  },
  /** `sudo` on a system change is how system changes are made: together they ask for approval; only a
   * critical change (forced block) or other evidence blocks. */
  privileged_system_change: {
    cap: 50,
    categories: ['privilege_escalation', 'system_change', 'process_control'] as readonly GuardrailCategory[],
  },
} as const;

export function isOneOf<T extends string>(values: Readonly<Record<T, unknown>> | readonly T[], x: unknown): x is T {
  if (typeof x !== 'string') return false;
  return Array.isArray(values) ? values.includes(x as T) : Object.prototype.hasOwnProperty.call(values, x);
}
