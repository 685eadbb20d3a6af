/**
 * The third round of benign hard negatives for the prompt-attack heads (2026-11-29): text
 * addressed to a model that attacks nothing, full of the heads' trigger words.
 *
 * - `cursorrules` (PatrickJS/awesome-cursorrules, CC0-1.0): rules people give coding agents
 *   ("You are…", "Never…", "Always…", "ignore…"), English.
 * - `peguide` (dair-ai/Prompt-Engineering-Guide, MIT): the guide's example prompts and its
 *   prose about prompting, in 14 languages (its own translations): the short imperative tasks
 *   ("Classify the text…", "Translate…") the heads read as goal hijacking. Its pages about
 *   attacks (risks/, adversarial prompting, and any whose English text talks of injections or
 *   jailbreaks) are left out in every language: they quote real attacks.
 *
 * Any text naming a jailbreak or an override (as for awesome-chatgpt-prompts) is left out too.
 * Licences, commits and mappings: SOURCES in injection-sources.ts and model/INJECTION_CARD.md.
 */
import { createHash } from 'crypto';
import { chunkText } from '../../libs/providers/src/local-embedding/text-chunks';
import { gitLs, gitShow, InjectionRow } from './injection-sources';

const h = (s: string) => createHash('sha1').update(s).digest('hex');
/** What a benign set must not contain: the text would be an attack, or quote one. */
export const NAMES_AN_ATTACK =
  /\b(DAN|jailbr[eo]ak\w*|developer mode|no restrictions|unfiltered|uncensored|pwned|prompt injection|injection attack|(ignore|disregard|forget)\s+(all\s+|the\s+|any\s+|your\s+)?(previous|prior|above|earlier)\s+(instructions|directions|prompts?))\b/i;
/** An English guide page that talks of attacks (its translations are left out with it). */
const TALKS_OF_ATTACKS = /prompt injection|jailbr[eo]ak|ignore (the|your|all|previous|above|prior)|pwned|prompt leak|adversarial/i;
/** The guide's language suffixes and the corpus's language codes. */
const GUIDE_LANGS: Record<string, string> = {
  en: 'en',
  de: 'de',
  ar: 'ar',
  zh: 'zh',
  jp: 'ja',
  tr: 'tr',
  pt: 'pt',
  kr: 'ko',
  it: 'it',
  fr: 'fr',
  fi: 'fi',
  es: 'es',
  ca: 'ca',
  ru: 'ru',
};
/** Rows kept per language of the guide (the smallest sha1s): prompts, then prose. */
const GUIDE_PROMPTS_PER_LANG = 60;
const GUIDE_PROSE_PER_LANG = 30;
/** Fenced blocks in these languages are code, not prompts. */
const CODE_FENCE = /^(python|py|js|javascript|ts|typescript|json|bash|sh|shell|sql|html|css|yaml|tsx|jsx|mdx|latex|tex)\b/i;

/** The prompts (untagged fenced blocks) and prose paragraphs of one guide page. */
export function guidePageTexts(mdx: string): { prompts: string[]; prose: string[] } {
  const prompts: string[] = [];
  const prose: string[] = [];
  const fence = /```([^\n]*)\n([\s\S]*?)```/g;
  let m: RegExpExecArray | null;
  while ((m = fence.exec(mdx))) if (!CODE_FENCE.test(m[1].trim())) prompts.push(m[2].trim());
  const withoutCode = mdx.replace(fence, '\n\n');
  for (const p of withoutCode.split(/\n\s*\n/)) {
    const t = p.trim();
    // paragraphs of sentences: no headings, imports, components, tables, lists of links
    if (t.length < 160 || /^(#|import |<|\||!\[|\[)/.test(t) || /^\s*[-*] \[/.test(t)) continue;
    prose.push(t);
  }
  return { prompts, prose };
}

export function loadGuideRows(mirror: string): InjectionRow[] {
  const rows: InjectionRow[] = [];
  const add = (text: string, source: string, lang: string) => {
    const t = text.replace(/^\uFEFF/, '').trim();
    if (t.length >= 12 && !NAMES_AN_ATTACK.test(t)) rows.push({ text: t, label: 'benign', source, lang });
  };

  // awesome-cursorrules: the first chunk of each rule file, its front matter dropped.
  for (const f of gitLs(mirror, 'cursorrules', 'rules').filter((p) => /\.(mdc|md|cursorrules)$/.test(p))) {
    const body = gitShow(mirror, 'cursorrules', f).replace(/^---\n[\s\S]*?\n---\n/, '');
    add(chunkText(body)[0] ?? '', 'cursorrules', 'en');
  }

  // Prompt-Engineering-Guide: per language, a fixed subset of prompts and of prose.
  // A page is read in every language only when its English text is clean: a translation
  // quotes the same attacks in its own words, which no English pattern would find.
  const all = gitLs(mirror, 'peguide', 'pages').filter((p) => p.endsWith('.mdx'));
  const cleanBase = new Set(
    all
      .filter((p) => p.endsWith('.en.mdx') && !p.startsWith('pages/risks') && !p.includes('adversarial'))
      .filter((p) => !TALKS_OF_ATTACKS.test(gitShow(mirror, 'peguide', p)))
      .map((p) => p.slice(0, -'.en.mdx'.length)),
  );
  const pages = all.filter((p) => cleanBase.has(p.replace(/\.[a-z]{2}\.mdx$/, '')));
  const byLang = new Map<string, { prompts: string[]; prose: string[] }>();
  for (const p of pages) {
    const suffix = /\.([a-z]{2})\.mdx$/.exec(p)?.[1];
    const lang = suffix ? GUIDE_LANGS[suffix] : undefined;
    if (!lang) continue;
    const got = guidePageTexts(gitShow(mirror, 'peguide', p));
    const acc = byLang.get(lang) ?? { prompts: [], prose: [] };
    acc.prompts.push(...got.prompts.map((t) => chunkText(t)[0] ?? ''));
    acc.prose.push(...got.prose.map((t) => chunkText(t)[0] ?? ''));
    byLang.set(lang, acc);
  }
  // A page left untranslated repeats the English text: only texts unlike every English one count.
  const english = new Set([...(byLang.get('en')?.prompts ?? []), ...(byLang.get('en')?.prose ?? [])]);
  for (const [lang, { prompts, prose }] of byLang) {
    const pick = (list: string[], n: number) =>
      [...new Set(list)]
        .filter((t) => lang === 'en' || !english.has(t))
        .sort((a, b) => (h(a) < h(b) ? -1 : 1))
        .slice(0, n);
    for (const t of pick(prompts, GUIDE_PROMPTS_PER_LANG)) add(t, 'peguide', lang);
    for (const t of pick(prose, GUIDE_PROSE_PER_LANG)) add(t, 'peguide', lang);
  }
  return rows;
}
