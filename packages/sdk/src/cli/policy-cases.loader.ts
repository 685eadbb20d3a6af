import { load } from 'js-yaml';
import type { Action } from '../types/checks.types';
import { UsageError } from './usage.error';

/** One expectation of `cds policies test`: a text (checked for real) or mock scores or signals (dry run). */
export type PolicyCase =
  | { name?: string; text: string; language?: string; expect: Action }
  | { name?: string; scores: Record<string, number>; expect: Action }
  | { name?: string; signals: Record<string, number>; expect: Action };

const ACTIONS: readonly Action[] = ['allow', 'warn', 'flag', 'block'];
const KEYS = new Set(['name', 'text', 'language', 'scores', 'signals', 'expect']);

/**
 * The cases file: a YAML list (or `{cases: [...]}`) of
 * `{name?, text?, language?, scores?: {category: n}, signals?: {name: n}, expect: action}`,
 * each with exactly one of text, scores, signals. Unknown keys are refused, so a typo
 * (`expected:`) cannot make a case pass silently.
 */
export function loadPolicyCases(yaml: string, file = 'cases'): PolicyCase[] {
  let doc: unknown;
  try {
    doc = load(yaml);
  } catch (err) {
    throw new UsageError(`${file} is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const list = doc && typeof doc === 'object' && !Array.isArray(doc) && 'cases' in doc ? (doc as { cases: unknown }).cases : doc;
  if (!Array.isArray(list) || list.length === 0) throw new UsageError(`${file} must be a non-empty YAML list of cases`);
  return list.map((raw, i) => parseCase(raw, `${file}: case ${i + 1}`));
}

function parseCase(raw: unknown, where: string): PolicyCase {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new UsageError(`${where} must be a mapping`);
  const c = raw as Record<string, unknown>;
  const unknown = Object.keys(c).filter((k) => !KEYS.has(k));
  if (unknown.length) throw new UsageError(`${where}: unknown key ${unknown.join(', ')} (keys: ${[...KEYS].join(', ')})`);
  if (typeof c.expect !== 'string' || !ACTIONS.includes(c.expect as Action)) {
    throw new UsageError(`${where}: expect must be one of ${ACTIONS.join(', ')}`);
  }
  const expect = c.expect as Action;
  if (c.name !== undefined && typeof c.name !== 'string') throw new UsageError(`${where}: name must be a string`);
  const name = c.name === undefined ? {} : { name: c.name as string };
  const given = (['text', 'scores', 'signals'] as const).filter((k) => c[k] !== undefined);
  if (given.length !== 1) throw new UsageError(`${where}: give exactly one of text, scores, signals`);
  if (c.language !== undefined && given[0] !== 'text') throw new UsageError(`${where}: language goes with text`);
  switch (given[0]) {
    case 'text':
      if (typeof c.text !== 'string' || c.text === '') throw new UsageError(`${where}: text must be a non-empty string`);
      if (c.language !== undefined && typeof c.language !== 'string') throw new UsageError(`${where}: language must be a string`);
      return { ...name, text: c.text, ...(c.language !== undefined ? { language: c.language as string } : {}), expect };
    case 'scores':
      return { ...name, scores: numbers(c.scores, `${where}: scores`), expect };
    case 'signals':
      return { ...name, signals: numbers(c.signals, `${where}: signals`), expect };
  }
}

function numbers(value: unknown, where: string): Record<string, number> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${where} must be a mapping of name to number`);
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new UsageError(`${where}.${k} must be a number`);
  }
  return value as Record<string, number>;
}

/** How a case is named in the report: its name, else what it checks. */
export function caseLabel(c: PolicyCase): string {
  if (c.name) return c.name;
  if ('text' in c) return `text ${JSON.stringify(c.text.length > 40 ? `${c.text.slice(0, 39)}…` : c.text)}`;
  const [kind, values] = 'scores' in c ? ['scores', c.scores] : ['signals', c.signals];
  return `${kind} ${Object.entries(values)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ')}`;
}
