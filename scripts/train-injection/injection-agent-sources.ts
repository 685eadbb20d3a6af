/**
 * The fifth round of public sources for the prompt-attack heads (2026-11-30): benign system
 * prompts in many languages, the kind the cross-source table reads as attacks when left out.
 *
 * - `lobeagents` (lobehub/lobe-chat-agents, MIT): the assistant personas of LobeChat's agent
 *   index, each agent's `config.systemRole` in English and in the 17 locales the repository
 *   translates it into (its own translations, made with a model: .i18nrc.js). Each agent is
 *   taken in 2 of its 18 locales (a fixed pseudo-random pick), so every agent and every
 *   language is seen and no one persona dominates. Agents whose English or Chinese prompt
 *   names a jailbreak, an override or an unfiltered mode are left out in every locale.
 *
 * Licences, commits and mappings: SOURCES in injection-sources.ts and model/INJECTION_CARD.md.
 */
import { execFileSync } from 'child_process';
import { createHash } from 'crypto';
import { existsSync } from 'fs';
import { join } from 'path';
import { NAMES_AN_ATTACK } from './injection-guide-sources';
import { gitLs, InjectionRow, SOURCES } from './injection-sources';

/** A persona prompt that talks of attacks or unlocks the model (left out in every locale). */
const TALKS_OF_ATTACKS = /prompt injection|jailbr[eo]ak|ignore (the|your|all|previous|above|prior)|pwned|prompt leak|adversarial|unfiltered|uncensored/i;
const NAMES_AN_ATTACK_ZH = /越狱|無限制|无限制|开发者模式|開發者模式|忽略|DAN/;
/** The repository's locale suffixes (index.<suffix>.json; English is index.json) and the corpus's codes. */
const LOCALES: Record<string, string> = {
  '': 'en',
  ar: 'ar',
  'bg-BG': 'bg',
  'de-DE': 'de',
  'es-ES': 'es',
  'fa-IR': 'fa',
  'fr-FR': 'fr',
  'it-IT': 'it',
  'ja-JP': 'ja',
  'ko-KR': 'ko',
  'nl-NL': 'nl',
  'pl-PL': 'pl',
  'pt-BR': 'pt',
  'ru-RU': 'ru',
  'tr-TR': 'tr',
  'vi-VN': 'vi',
  'zh-CN': 'zh',
  'zh-TW': 'zh',
};
export const LOCALES_PER_AGENT = 2;
const h = (s: string) => createHash('sha1').update(s).digest('hex');

interface AgentFile {
  config?: { systemRole?: string };
}

/** Every file under `under` at the pinned commit, read with one `git cat-file --batch` (9,000 files:
 * a process per file took minutes). */
function readAll(mirror: string, under: string): Map<string, string> {
  const { repo, commit } = SOURCES.lobeagents;
  const dir = join(mirror, repo.replace('/', '+'), 'repo');
  if (!existsSync(dir)) throw new Error(`${repo} is not under ${mirror}: bring it with the search tool's fetch (github:${repo})`);
  const paths = gitLs(mirror, 'lobeagents', under);
  const out = execFileSync('git', ['-C', dir, 'cat-file', '--batch'], {
    input: paths.map((p) => `${commit}:${p}`).join('\n') + '\n',
    maxBuffer: 1 << 30,
  });
  const files = new Map<string, string>();
  let at = 0;
  for (const p of paths) {
    const eol = out.indexOf(10, at);
    const size = Number(out.subarray(at, eol).toString('latin1').split(' ')[2]);
    files.set(p, out.subarray(eol + 1, eol + 1 + size).toString('utf8'));
    at = eol + 1 + size + 1;
  }
  return files;
}

export function loadAgentRows(mirror: string): InjectionRow[] {
  const rows: InjectionRow[] = [];
  const files = readAll(mirror, 'locales');
  const agents = [...new Set([...files.keys()].map((p) => p.split('/')[1]))].sort();
  const role = (agent: string, suffix: string) =>
    ((JSON.parse(files.get(`locales/${agent}/index${suffix ? `.${suffix}` : ''}.json`) ?? '{}') as AgentFile).config?.systemRole ?? '').trim();
  for (const agent of agents) {
    const en = role(agent, '');
    if (NAMES_AN_ATTACK.test(en) || TALKS_OF_ATTACKS.test(en) || NAMES_AN_ATTACK_ZH.test(role(agent, 'zh-CN'))) continue;
    const picked = Object.keys(LOCALES)
      .sort((a, b) => (h(`${agent} ${a}`) < h(`${agent} ${b}`) ? -1 : 1))
      .slice(0, LOCALES_PER_AGENT);
    for (const suffix of picked) {
      const t = suffix ? role(agent, suffix) : en;
      if (t.length >= 8 && !NAMES_AN_ATTACK.test(t) && !TALKS_OF_ATTACKS.test(t))
        rows.push({ text: t, label: 'benign', source: 'lobeagents', lang: LOCALES[suffix] });
    }
  }
  return rows;
}
