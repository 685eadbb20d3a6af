/**
 * Globs and brace lists left in a path (`/?*`, `/[!w]*`, `~/.ss?/id_rsa`, a nested or
 * quoted `{a,b}`) are matched as patterns: the engine has no file system to expand them,
 * so a glob counts as touching every known path it could match. As in bash without
 * dotglob, `*`, `?` and `[...]` never match a leading dot (`~/*` does not reach
 * `~/.ssh`), `**` may span directories, and brace lists expand (past 32 alternatives they
 * stand for any text).
 */
import { compileShellPattern, CompiledShellPattern, matchShellPatternWhole, ShellPatternError } from '../shell/shell-glob';
import { LRUCache } from 'lru-cache';

type GlobSegment =
  | { kind: 'literal'; text: string }
  /** `**`; `dots` when it stands for a brace list too large to expand, which may name dotfiles. */
  | { kind: 'globstar'; dots: boolean }
  | { kind: 'pattern'; pattern: CompiledShellPattern; dotLiteral: boolean };

/** A segment of a known path; null stands for any name (the user in /home/<user>), DRIVE for a drive letter. */
export type TemplateSegment = string | null;
/** The drive of `/c/Users/<user>`: one letter, so `/workspace/**` never passes for a drive. */
export const DRIVE = '\u0002drive';

const GLOB = /[*?]|\[[^\]/]{1,64}\]|\{[^{}]{0,256}(?:,|\.\.)[^{}]{0,256}\}/;
const MAX_SEGMENTS = 64;
/** Stand-in for a brace list past MAX_EXPANSIONS: any text, dots included (never in a real path). */
const ANY = '\u0001';
const MAX_EXPANSIONS = 32;
const cache = new LRUCache<string, GlobSegment[][]>({ max: 512 });

/** Code and prose (`{open(STDIN,">&S")}`) may hold glob characters too; a path has none of these. */
const NOT_A_PATH = /[\s;()"'`<>|&$]/;

export function hasPathGlob(path: string): boolean {
  return path.length <= 1024 && GLOB.test(path) && !NOT_A_PATH.test(path);
}

function compileSegment(seg: string): GlobSegment {
  if (seg === '**') return { kind: 'globstar', dots: false };
  if (seg.includes(ANY)) return { kind: 'globstar', dots: true };
  if (!/[*?[]/.test(seg)) return { kind: 'literal', text: seg };
  try {
    return { kind: 'pattern', pattern: compileShellPattern(seg), dotLiteral: seg.startsWith('.') };
  } catch (e) {
    if (e instanceof ShellPatternError) return { kind: 'literal', text: seg };
    throw e;
  }
}

/** The first brace list at depth 0 with a comma: [start, end, alternatives]. */
function firstBraceList(p: string): [number, number, string[]] | null {
  for (let open = p.indexOf('{'); open >= 0; open = p.indexOf('{', open + 1)) {
    let depth = 0;
    let from = open + 1;
    const alternatives: string[] = [];
    for (let i = open; i < p.length; i++) {
      if (p[i] === '{') depth++;
      else if (p[i] === '}' && --depth === 0) {
        if (alternatives.length === 0) break;
        return [open, i, [...alternatives, p.slice(from, i)]];
      } else if (p[i] === ',' && depth === 1) {
        alternatives.push(p.slice(from, i));
        from = i + 1;
      }
    }
  }
  return null;
}

/** Brace lists expand as bash does (`*.{ts,tsx}`, `/{bin,{etc,usr}}`); ranges `{1..9}` become `*`. */
function expandBraces(key: string): string[] {
  let todo = [key.replace(/\{[^{},]*\.\.[^{},]*\}/g, '*')];
  const done: string[] = [];
  while (todo.length > 0) {
    const next: string[] = [];
    for (const p of todo) {
      const list = firstBraceList(p);
      if (!list) done.push(p);
      else next.push(...list[2].map((alt) => p.slice(0, list[0]) + alt + p.slice(list[1] + 1)));
    }
    if (done.length + next.length > MAX_EXPANSIONS) return [key.replace(/\{[^]*\}/, ANY)];
    todo = next;
  }
  return done;
}

function compileGlob(key: string): GlobSegment[][] {
  const hit = cache.get(key);
  if (hit) return hit;
  const globs = expandBraces(key).map((p) => p.split('/').filter(Boolean).slice(0, MAX_SEGMENTS).map(compileSegment));
  cache.set(key, globs);
  return globs;
}

function segmentMatches(g: GlobSegment, name: TemplateSegment): boolean {
  if (name === null) return true;
  if (name === DRIVE) return g.kind === 'globstar' || (g.kind === 'literal' ? /^[a-z]$/.test(g.text) : matchShellPatternWhole(g.pattern, 'c'));
  if (g.kind === 'literal') return g.text === name;
  if (name.startsWith('.') && !(g.kind === 'globstar' ? g.dots : g.dotLiteral)) return false;
  return g.kind === 'globstar' || matchShellPatternWhole(g.pattern, name);
}

/**
 * Could the glob `key` (a normalized, lowercased path) name the path `template`
 * (`exact`), or that path or anything below it (`under`)?
 */
export function globReaches(key: string, template: readonly TemplateSegment[], mode: 'exact' | 'under'): boolean {
  return compileGlob(key).some((g) => reaches(g, template, mode));
}

function reaches(g: readonly GlobSegment[], template: readonly TemplateSegment[], mode: 'exact' | 'under'): boolean {
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    const id = i * (template.length + 1) + j;
    const known = memo.get(id);
    if (known !== undefined) return known;
    let r: boolean;
    if (j === template.length) r = mode === 'under' || g.slice(i).every((s) => s.kind === 'globstar');
    else if (i === g.length) r = false;
    // `**` spans directories but, as in bash without dotglob, never a hidden one (`**/*.c` does not reach ~/.ssh).
    else if (g[i].kind === 'globstar') r = go(i + 1, j) || (segmentMatches(g[i], template[j]) && go(i, j + 1));
    else r = segmentMatches(g[i], template[j]) && go(i + 1, j + 1);
    memo.set(id, r);
    return r;
  };
  return go(0, 0);
}

export function templateOf(path: string): TemplateSegment[] {
  return path.toLowerCase().split('/').filter(Boolean);
}

/** The same home-relative path in every home: /home/<user>, /root, /Users/<user>, /c/Users/<user>. */
export function homeTemplates(rest: readonly TemplateSegment[]): TemplateSegment[][] {
  return [
    ['home', null, ...rest],
    ['root', ...rest],
    ['users', null, ...rest],
    [DRIVE, 'users', null, ...rest],
  ];
}
