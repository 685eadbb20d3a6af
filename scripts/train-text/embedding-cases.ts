/**
 * The hand-written 17-language set (libs/providers/src/local-embedding/multilingual-cases.fixtures.json)
 * through the real scorer: threats, self-harm statements and sexual solicitation must
 * reach their category's default-policy threshold; benign look-alikes must trigger nothing.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { clearedByCascade } from '../../libs/providers/src/local-embedding/embedding-heads';
import { LocalEmbeddingScorer } from '../../libs/providers/src/local-embedding/local-embedding.scorer';
import { LOCAL_TEXT_CATEGORIES, LocalTextCategory, LocalTextClassifier, foldLocalTextSignals } from '@cds/providers';
import { PROJECT_ROOT } from './cli-options';
import { DEFAULT_POLICY_THRESHOLDS } from './embedding-scoring';

export interface MultilingualCase {
  lang: string;
  kind: 'threat' | 'self-harm' | 'solicitation';
  category: LocalTextCategory;
  expect: 'caught' | 'not-caught';
  text: string;
}

export interface CaseResult extends MultilingualCase {
  /** the case's category score, embedding path (cascade off) */
  score: number;
  triggered: LocalTextCategory[];
  pass: boolean;
  /** the same under the cascade (n-gram may clear the text) */
  cascadeCleared: boolean;
  cascadePass: boolean;
  ngramScore: number;
  ngramPass: boolean;
}

export const CASES_FILE = join(PROJECT_ROOT, 'libs/providers/src/local-embedding/multilingual-cases.fixtures.json');

export function loadCases(): MultilingualCase[] {
  return (JSON.parse(readFileSync(CASES_FILE, 'utf8')) as { cases: MultilingualCase[] }).cases;
}

const triggeredBy = (cats: Record<LocalTextCategory, number>) => LOCAL_TEXT_CATEGORIES.filter((c) => cats[c] >= DEFAULT_POLICY_THRESHOLDS[c]);

export function passes(c: MultilingualCase, triggered: LocalTextCategory[]): boolean {
  return c.expect === 'caught' ? triggered.includes(c.category) : triggered.length === 0;
}

export async function runMultilingualCases(o: { workers: number; ngram: LocalTextClassifier; headsPath?: string }): Promise<CaseResult[]> {
  const scorer = LocalEmbeddingScorer.start({ workers: o.workers, ngram: o.ngram, headsPath: o.headsPath, cascade: false, log: () => undefined });
  try {
    await scorer.ready();
    const cases = loadCases();
    const signals = await Promise.all(cases.map((c) => scorer.score(c.text, c.lang)));
    return cases.map((c, i) => {
      const cats = foldLocalTextSignals(signals[i]);
      const ngramCats = foldLocalTextSignals(o.ngram.score(c.text, c.lang));
      const triggered = triggeredBy(cats);
      const cleared = scorer.heads.cascade !== null && clearedByCascade(ngramCats, scorer.heads.cascade.clearBelow);
      const ngramTriggered = triggeredBy(ngramCats);
      return {
        ...c,
        score: cats[c.category],
        triggered,
        pass: passes(c, triggered),
        cascadeCleared: cleared,
        cascadePass: passes(c, cleared ? ngramTriggered : triggered),
        ngramScore: ngramCats[c.category],
        ngramPass: passes(c, ngramTriggered),
      };
    });
  } finally {
    await scorer.close();
  }
}
