/**
 * Turns whatever an agent wrote as a path into one canonical absolute POSIX path, so a
 * prefix check cannot be dodged by spelling. The engine has no file system: `~` and
 * `$HOME` stand for PLACEHOLDER_HOME and relative paths are resolved against
 * PLACEHOLDER_WORKSPACE; home-relative prefixes then match every user's home.
 */
import { globReaches, hasPathGlob, homeTemplates, templateOf } from './path-glob';

export const PLACEHOLDER_HOME = '/home/agent';
export const PLACEHOLDER_WORKSPACE = '/workspace';

export interface NormalizedPath {
  /** Canonical absolute path, original case kept (for reasons). */
  display: string;
  /** Canonical absolute path, lowercased (for comparisons). */
  key: string;
  /** A `..` segment climbed above the directory it appeared in. */
  climbed: boolean;
  /** Percent-encoding had to be decoded (`%2e%2e`, `%252f`...). */
  encoded: boolean;
}

const ASCII = /^[\x00-\x7f]*$/;
/** An empty, `.` or `..` segment, or a trailing slash: without one, an absolute path is already canonical. */
const SEGMENT_WORK = /\/\.{0,2}(?:\/|$)/;
const HOME_VARS = /^(?:\$HOME|\$\{HOME\}|\$USERPROFILE|\$\{USERPROFILE\}|%USERPROFILE%|%HOMEPATH%)(?=\/|$)/i;

/** `cwd` resolves relative paths; by default the placeholder workspace. */
export function normalizePath(raw: string, cwd: string = PLACEHOLDER_WORKSPACE): NormalizedPath {
  const nul = raw.indexOf('\0');
  let p = nul < 0 ? raw : raw.slice(0, nul);
  // ASCII is its own NFKC form: only other text pays for the normalization
  if (!ASCII.test(p)) p = p.normalize('NFKC');
  p = p.trim();
  const decoded = p.includes('%') ? percentDecode(p) : p;
  const encoded = decoded !== p;
  p = decoded.includes('\\') ? decoded.replace(/\\/g, '/') : decoded;
  if (!p.startsWith('/')) {
    // A file URI (`file:///etc/x`, `file:/etc/x`, SQLite's `file:path?mode=ro`) names the path before its query.
    if (/^file:/i.test(p)) p = p.replace(/^file:(?:\/\/(?=\/))?/i, '').replace(/\?.*$/s, '');
    p = p.replace(/^([a-z]):(?=\/|$)/i, (_m, d: string) => `/${d.toLowerCase()}`);
    p = p.replace(HOME_VARS, PLACEHOLDER_HOME);
  }
  if (p === '~' || p.startsWith('~/')) p = PLACEHOLDER_HOME + p.slice(1);
  else if (p.startsWith('~')) {
    const slash = p.indexOf('/');
    const user = slash < 0 ? p.slice(1) : p.slice(1, slash);
    const rest = slash < 0 ? '' : p.slice(slash);
    p = (user === 'root' ? '/root' : `/home/${user}`) + rest;
  }
  if (!p.startsWith('/')) p = `${cwd}/${p}`;

  let climbed = false;
  if (SEGMENT_WORK.test(p)) {
    const segments: string[] = [];
    for (const seg of p.split('/')) {
      if (seg === '' || seg === '.') continue;
      if (seg === '..') {
        climbed = true;
        segments.pop();
        continue;
      }
      segments.push(seg);
    }
    p = '/' + segments.join('/');
  }
  const display = unSymlink(p);
  return { display, key: display.toLowerCase(), climbed, encoded };
}

/** The first segments of the links below: a path under none of them is left as it is. */
const LINK_ROOTS = /^\/(?:proc|private|var|dev)\//i;

/** Well-known links that lead back into the tree: /proc/self/root is `/`, /private/etc is /etc. */
function unSymlink(p: string): string {
  if (!LINK_ROOTS.test(p)) return p;
  let out = p;
  for (let i = 0; i < 4; i++) {
    const next = out
      .replace(/^\/proc\/(?:self|thread-self|\d{1,10})\/root(?=\/|$)/i, '')
      .replace(/^\/proc\/(?:self|thread-self|\d{1,10})\/cwd(?=\/|$)/i, PLACEHOLDER_WORKSPACE)
      .replace(/^\/private\/(etc|var|tmp)(?=\/|$)/i, '/$1')
      .replace(/^\/var\/run(?=\/|$)/i, '/run')
      .replace(/^\/dev\/fd\/\d{1,10}(?=\/|$)/i, '/dev/fd');
    if (next === out) break;
    out = next;
  }
  return out === '' ? '/' : out;
}

function percentDecode(s: string): string {
  let cur = s;
  for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(cur); i++) {
    cur = cur.replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
  return cur;
}

/** `/home/<user>/rest`, `/users/<user>/rest`, `/c/users/<user>/rest`, `/root/rest` -> `rest`. */
function homeRelative(key: string): string | null {
  const m = /^(?:\/home\/[^/]+|\/users\/[^/]+|\/[a-z]\/users\/[^/]+|\/root)(\/.*)?$/.exec(key);
  return m ? (m[1] ?? '') : null;
}

function underPrefix(key: string, prefix: string): boolean {
  if (prefix === '/') return true;
  return key === prefix || key.startsWith(prefix + '/');
}

/** A prefix compiled once per evaluation. */
export interface PathPrefix {
  source: string;
  key: string;
  /** Set when the prefix lives in a home directory: then it matches in any user's home. */
  homeRest: string | null;
}

export function compilePathPrefix(source: string): PathPrefix {
  const { key } = normalizePath(source);
  const home = PLACEHOLDER_HOME.toLowerCase();
  const homeRest = key.startsWith(home + '/') ? key.slice(home.length) : null;
  return { source, key, homeRest };
}

/** A globbed path matches when any path it could name is under the prefix (`/e?c/x`, `/*` reach /etc). */
export function matchesPathPrefix(path: NormalizedPath, prefix: PathPrefix): boolean {
  if (underPrefix(path.key, prefix.key)) return true;
  if (hasPathGlob(path.key)) {
    const templates = [templateOf(prefix.key), ...(prefix.homeRest === null ? [] : homeTemplates(templateOf(prefix.homeRest)))];
    return templates.some((t) => globReaches(path.key, t, 'under'));
  }
  if (prefix.homeRest === null) return false;
  const rest = homeRelative(path.key);
  return rest !== null && underPrefix(rest || '/', prefix.homeRest);
}

export function isUnderWorkspace(path: NormalizedPath): boolean {
  return underPrefix(path.key, PLACEHOLDER_WORKSPACE);
}
