import { readFileSync } from 'fs';
import { join } from 'path';
import { LexiconFile, SUPPORTED_LANGUAGES, normalizeText } from '@cds/providers';
import { parseCsvObjects } from './csv';
import { SELF_HARM_INTENT_SEEDS, SELF_HARM_TOPIC_SEEDS, VIOLENCE_SEEDS } from './lexicon-seeds';

export const LEXICON_CATEGORIES = ['obscene', 'sexual', 'slur', 'profanity', 'self_harm', 'self_harm_intent', 'violence'] as const;
type LexCategory = (typeof LEXICON_CATEGORIES)[number];

const SLUR_CATEGORIES = new Set(['racial / ethnic slurs', 'sexual orientation / gender', 'mental disability', 'physical disability', 'religious offense']);

/**
 * Builds the committed lexicon file:
 * - `obscene`: LDNOOBW word lists (16 languages, mostly sexual terms and swearing);
 * - `sexual`, `slur`, `profanity`: surge-ai/profanity (English) by its categories;
 * - `self_harm`, `self_harm_intent`, `violence`: the project's seed phrases (lexicon-seeds.ts).
 * Terms are normalised exactly as the runtime normalises text, deduplicated and sorted.
 */
export function buildLexicon(dataDir: string): LexiconFile {
  const entries: Record<string, Partial<Record<LexCategory, Set<string>>>> = {};
  const add = (lang: string, cat: LexCategory, term: string) => {
    const norm = normalizeText(term);
    if (norm.length < 2 && !/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/.test(norm)) return;
    if (norm.length === 0) return;
    const byCat = (entries[lang] ??= {});
    (byCat[cat] ??= new Set()).add(norm);
  };

  for (const lang of SUPPORTED_LANGUAGES) {
    let text: string;
    try {
      text = readFileSync(join(dataDir, 'ldnoobw', lang), 'utf8');
    } catch {
      continue; // LDNOOBW has no Indonesian list
    }
    for (const line of text.split(/\r?\n/)) if (line.trim()) add(lang, 'obscene', line.trim());
  }

  for (const r of parseCsvObjects(readFileSync(join(dataDir, 'surge-profanity/profanity_en.csv'), 'utf8'))) {
    const cats = [r.category_1, r.category_2, r.category_3].filter(Boolean);
    const severity = Number(r.severity_rating) || 0;
    if (cats.includes('sexual anatomy / sexual acts')) add('en', 'sexual', r.text);
    if (cats.some((c) => SLUR_CATEGORIES.has(c)) && severity >= 1.5) add('en', 'slur', r.text);
    if (cats.some((c) => c === 'bodily fluids / excrement' || c === 'other / general insult' || c === 'animal references')) add('en', 'profanity', r.text);
  }

  for (const [lang, terms] of Object.entries(SELF_HARM_TOPIC_SEEDS)) for (const t of terms) add(lang, 'self_harm', t);
  for (const [lang, terms] of Object.entries(SELF_HARM_INTENT_SEEDS)) for (const t of terms) add(lang, 'self_harm_intent', t);
  for (const [lang, terms] of Object.entries(VIOLENCE_SEEDS)) for (const t of terms) add(lang, 'violence', t);

  const out: LexiconFile = { version: 1, categories: [...LEXICON_CATEGORIES], entries: {} };
  for (const lang of Object.keys(entries).sort()) {
    out.entries[lang] = {};
    for (const cat of LEXICON_CATEGORIES) {
      const set = entries[lang][cat];
      if (set && set.size > 0) out.entries[lang][cat] = [...set].sort();
    }
  }
  return out;
}
