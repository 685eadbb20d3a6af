import { readFileSync } from 'fs';
import { join } from 'path';
import { PROJECT_ROOT } from '../cli-options';
import { DatasetLoader, Example, labels } from './example';

/** Committed with the trainer (not in the shared data folder): datasets/xsafety/SOURCE.txt. */
export const XSAFETY_DIR = join(PROJECT_ROOT, 'scripts/train-text/datasets/xsafety');

const FILES: [string, string][] = [
  ['ar', 'ar/Insult.csv'],
  ['de', 'de/Insult.csv'],
  ['en', 'en/Insult_n.csv'],
  ['fr', 'fr/Insult.csv'],
  ['hi', 'hi/Insult.csv'],
  ['ja', 'ja/Insult.csv'],
  ['ru', 'ru/Insult.csv'],
  ['es', 'sp/Insult.csv'],
];

/** One sentence a line; a line may be wrapped in quotes (doubled quotes inside). */
export function xsafetyLine(line: string): string {
  let t = line.replace(/^\ufeff/, '').trim();
  if (t.length >= 2 && t.startsWith('"') && t.endsWith('"')) t = t.slice(1, -1).replace(/""/g, '"');
  return t.trim();
}

/**
 * XSafety "Insult" (8 of the 17 languages, translations of one set): targeted insults and
 * personal attacks, the thinnest kind of harassment outside English. A weak label (0.7):
 * trained on, never reported, since a few lines are only rude.
 */
export const xsafetyInsult: DatasetLoader = {
  name: 'xsafety-insult',
  load() {
    const out: Example[] = [];
    for (const [lang, file] of FILES) {
      readFileSync(join(XSAFETY_DIR, file), 'utf8')
        .split(/\r?\n/)
        .forEach((line, i) => {
          const text = xsafetyLine(line);
          if (text.length < 8) return;
          const l = labels().pos(['harassment', 'insult', 'toxicity'], 0.7).neg('self_harm', 0.5);
          out.push({ dataset: 'xsafety-insult', lang, text, group: `xs:${i}`, labels: l.build() });
        });
    }
    return out;
  },
};
