/** Built-in list of credential stores; always sensitive, whatever sensitivePathPrefixes says. */
import { globReaches, hasPathGlob, homeTemplates, templateOf } from '../paths/path-glob';
import { NormalizedPath } from '../paths/path-normalizer';

const HOME_FILES: ReadonlyArray<[RegExp, string]> = [
  [/^\/\.ssh\/(?!.*\.pub$)(?:id_[^/]+|[^/]+\.(?:pem|key))$/, 'SSH private key'],
  [/^\/\.(?:ssh|aws|gnupg|azure|kube|password-store)$/, 'whole credentials directory'],
  [/^\/\.aws\/credentials$/, 'AWS credentials'],
  [/^\/\.azure\/(?:accesstokens\.json|msal_token_cache\.[^/]+)$/, 'Azure tokens'],
  [/^\/\.config\/gcloud\/(?:credentials\.db|access_tokens\.db|application_default_credentials\.json|legacy_credentials(?:\/.*)?)$/, 'Google Cloud credentials'],
  [/^\/\.kube\/config$/, 'Kubernetes credentials'],
  [/^\/\.docker\/config\.json$/, 'Docker registry credentials'],
  [/^\/\.netrc$/, '.netrc passwords'],
  [/^\/\.git-credentials$/, 'git credentials'],
  [/^\/\.npmrc$/, 'npm token'],
  [/^\/\.pypirc$/, 'PyPI token'],
  [/^\/\.gnupg\/(?:private-keys-v1\.d(?:\/.*)?|secring\.gpg)$/, 'GPG private keys'],
  [/^\/\.password-store(?:\/.*)?$/, 'password store'],
  [/^\/\.vault-token$/, 'Vault token'],
  [/^\/\.config\/gh\/hosts\.yml$/, 'GitHub CLI token'],
  [/^\/\.terraform\.d\/credentials\.tfrc\.json$/, 'Terraform token'],
  [/^\/library\/keychains(?:\/.*)?$/, 'macOS keychain'],
  [
    // macOS keeps per-terminal history under ~/.bash_sessions and ~/.zsh_sessions.
    /^\/\.(?:bash_history|zsh_history|history|sh_history|psql_history|mysql_history)$|^\/\.local\/share\/fish\/fish_history$|^\/\.(?:bash|zsh)_sessions(?:\/.*)?$/,
    'shell history (often holds secrets)',
  ],
  [
    /^\/(?:library\/application support|\.config)\/(?:google\/chrome|chromium|bravesoftware\/brave-browser|microsoft edge)\/[^/]+\/(?:login data|cookies|web data)$/,
    'browser passwords or cookies',
  ],
  [
    /^\/(?:\.mozilla\/firefox|library\/application support\/firefox\/profiles)\/[^/]+\/(?:logins\.json|key[34]\.db|cookies\.sqlite)$/,
    'browser passwords or cookies',
  ],
  [/^\/library\/cookies(?:\/.*)?$/, 'browser passwords or cookies'],
  [/^\/\.pgpass$|^\/\.my\.cnf$|^\/\.oci\/(?:sessions|config)(?:\/.*)?$/, 'database or cloud credentials'],
];

const SYSTEM_FILES: ReadonlyArray<[RegExp, string]> = [
  [/^\/etc\/(?:shadow|gshadow|master\.passwd)-?$/, 'password hashes'],
  [/^\/etc\/ssh\/ssh_host_[^/]+_key$/, 'SSH host private key'],
  [/^\/proc\/(?:self|\d{1,10})\/environ$/, 'process environment (secrets)'],
];

/** `.env`, `.env.local`, `.env.production`... but not `.env.example` and friends. */
const DOTENV = /\/\.env(?:\.(?!example$|sample$|template$|dist$|defaults$)[a-z0-9_-]{1,32})?$/;

/**
 * A known file of each kind above, for globbed paths: `~/.ss?/id_rsa` or `/e?c/shadow`
 * could name one of them. `[path, label, tree]`: a tree also covers what lies below it.
 */
const HOME_EXAMPLES: ReadonlyArray<[string, string, boolean?]> = [
  ...['id_rsa', 'id_ed25519', 'id_ecdsa', 'id_dsa', 'deploy.pem', 'deploy.key'].map((f): [string, string] => [`.ssh/${f}`, 'SSH private key']),
  ...['.ssh', '.aws', '.gnupg', '.azure', '.kube', '.password-store'].map((d): [string, string, boolean] => [d, 'whole credentials directory', false]),
  ['.aws/credentials', 'AWS credentials'],
  ['.azure/accesstokens.json', 'Azure tokens'],
  ['.config/gcloud/credentials.db', 'Google Cloud credentials'],
  ['.config/gcloud/application_default_credentials.json', 'Google Cloud credentials'],
  ['.config/gcloud/legacy_credentials', 'Google Cloud credentials', true],
  ['.kube/config', 'Kubernetes credentials'],
  ['.docker/config.json', 'Docker registry credentials'],
  ['.netrc', '.netrc passwords'],
  ['.git-credentials', 'git credentials'],
  ['.npmrc', 'npm token'],
  ['.pypirc', 'PyPI token'],
  ['.gnupg/private-keys-v1.d', 'GPG private keys', true],
  ['.gnupg/secring.gpg', 'GPG private keys'],
  ['.password-store', 'password store', true],
  ['.vault-token', 'Vault token'],
  ['.config/gh/hosts.yml', 'GitHub CLI token'],
  ['.terraform.d/credentials.tfrc.json', 'Terraform token'],
  ['library/keychains', 'macOS keychain', true],
];
const SYSTEM_EXAMPLES: ReadonlyArray<[string, string]> = [
  ...['shadow', 'gshadow', 'master.passwd'].map((f): [string, string] => [`/etc/${f}`, 'password hashes']),
  ...['rsa', 'ecdsa', 'ed25519'].map((k): [string, string] => [`/etc/ssh/ssh_host_${k}_key`, 'SSH host private key']),
  ['/proc/self/environ', 'process environment (secrets)'],
];
const DOTENV_EXAMPLES = ['.env', '.env.local', '.env.production'];

function globCredentialKind(key: string): string | null {
  for (const [path, label] of SYSTEM_EXAMPLES) if (globReaches(key, templateOf(path), 'exact')) return label;
  for (const [path, label, tree] of HOME_EXAMPLES) {
    if (homeTemplates(templateOf(path)).some((t) => globReaches(key, t, tree ? 'under' : 'exact'))) return label;
  }
  const last = key.slice(key.lastIndexOf('/') + 1);
  if (DOTENV_EXAMPLES.some((f) => globReaches(`/${last}`, [f], 'exact'))) return 'dotenv secrets file';
  return null;
}

/** A globbed path counts as a credential file when it could name one. */
export function credentialKind(path: NormalizedPath): string | null {
  const key = path.key;
  if (hasPathGlob(key)) {
    const kind = globCredentialKind(key);
    if (kind) return kind;
  }
  for (const [re, label] of SYSTEM_FILES) if (re.test(key)) return label;
  const home = /^(?:\/home\/[^/]+|\/users\/[^/]+|\/[a-z]\/users\/[^/]+|\/root)(\/.*)$/.exec(key);
  if (home) for (const [re, label] of HOME_FILES) if (re.test(home[1])) return label;
  if (DOTENV.test(key)) return 'dotenv secrets file';
  return null;
}

const HISTORY_FILES =
  /(?:^|\/)(?:\.(?:bash|zsh)_sessions(?:\/[^/]*)?|\.bash_history|\.zsh_history|\.history|\.sh_history|fish_history|\.python_history|\.mysql_history|\.psql_history|\.node_repl_history|\.lesshst|\.viminfo)$|^\/var\/log\/(?:wtmp|btmp|lastlog|auth\.log|secure|syslog|messages)$/;

export function isHistoryFile(path: NormalizedPath): boolean {
  return HISTORY_FILES.test(path.key);
}
