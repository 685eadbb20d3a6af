/** Built-in list of credential stores; always sensitive, whatever sensitivePathPrefixes says. */
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
];

const SYSTEM_FILES: ReadonlyArray<[RegExp, string]> = [
  [/^\/etc\/(?:shadow|gshadow|master\.passwd)-?$/, 'password hashes'],
  [/^\/etc\/ssh\/ssh_host_[^/]+_key$/, 'SSH host private key'],
  [/^\/proc\/(?:self|\d{1,10})\/environ$/, 'process environment (secrets)'],
];

/** `.env`, `.env.local`, `.env.production`... but not `.env.example` and friends. */
const DOTENV = /\/\.env(?:\.(?!example$|sample$|template$|dist$|defaults$)[a-z0-9_-]{1,32})?$/;

export function credentialKind(path: NormalizedPath): string | null {
  const key = path.key;
  for (const [re, label] of SYSTEM_FILES) if (re.test(key)) return label;
  const home = /^(?:\/home\/[^/]+|\/users\/[^/]+|\/[a-z]\/users\/[^/]+|\/root)(\/.*)$/.exec(key);
  if (home) for (const [re, label] of HOME_FILES) if (re.test(home[1])) return label;
  if (DOTENV.test(key)) return 'dotenv secrets file';
  return null;
}

const HISTORY_FILES = /(?:^|\/)(?:\.bash_history|\.zsh_history|\.history|\.sh_history|fish_history|\.python_history|\.mysql_history|\.psql_history|\.node_repl_history|\.lesshst|\.viminfo)$|^\/var\/log\/(?:wtmp|btmp|lastlog|auth\.log|secure|syslog|messages)$/;

export function isHistoryFile(path: NormalizedPath): boolean {
  return HISTORY_FILES.test(path.key);
}
