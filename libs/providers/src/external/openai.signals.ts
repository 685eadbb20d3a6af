import { ScoreMap } from '@cds/events';
import { getOwn, setOwn, SignalFolding } from '@cds/policy';
import { Modality } from '../port/provider.port';
import { badResponse } from './provider-call.error';
import { listAt, probabilityAt, recordAt, signalNameOf } from './response-shape';

export const OPENAI_PROVIDER = 'openai';

/** OpenAI moderation categories (omni-moderation) → the signal each becomes. Categories
 * OpenAI adds later become signals the same way (`a/b-c` → `a_b_c`) and fold nowhere. */
export const OPENAI_SIGNALS: Readonly<Record<string, string>> = Object.freeze({
  harassment: 'harassment',
  'harassment/threatening': 'harassment_threatening',
  hate: 'hate',
  'hate/threatening': 'hate_threatening',
  illicit: 'illicit',
  'illicit/violent': 'illicit_violent',
  'self-harm': 'self_harm',
  'self-harm/intent': 'self_harm_intent',
  'self-harm/instructions': 'self_harm_instructions',
  sexual: 'sexual',
  'sexual/minors': 'sexual_minors',
  violence: 'violence',
  'violence/graphic': 'violence_graphic',
});

/** `illicit` (advice for non-violent wrongdoing) folds nowhere: a policy thresholds it by name. */
export const OPENAI_SIGNAL_FOLDING: SignalFolding = Object.freeze({
  sexual: Object.freeze(['sexual', 'sexual_minors']),
  hate: Object.freeze(['hate', 'hate_threatening']),
  harassment: Object.freeze(['harassment', 'harassment_threatening']),
  violence: Object.freeze(['violence', 'violence_graphic', 'illicit_violent']),
  'self-harm': Object.freeze(['self_harm', 'self_harm_intent', 'self_harm_instructions']),
});

/**
 * Signals of a moderation answer: `results[0].category_scores`, keeping only the
 * categories that `category_applied_input_types` says were scored from this input's kind
 * (for an image, OpenAI still lists the text-only categories, with `[]`). An answer
 * without that field (older text models) keeps every category.
 */
export function openAiSignalsOf(json: unknown, modality: Modality): ScoreMap {
  const p = OPENAI_PROVIDER;
  const results = listAt(p, recordAt(p, json, 'answer').results, 'results');
  if (results.length === 0) throw badResponse(p, 'results is empty');
  const result = recordAt(p, results[0], 'results[0]');
  const scores = recordAt(p, result.category_scores, 'results[0].category_scores');
  const applied =
    result.category_applied_input_types === undefined ? undefined : recordAt(p, result.category_applied_input_types, 'results[0].category_applied_input_types');
  if (Object.keys(scores).length === 0) throw badResponse(p, 'results[0].category_scores is empty');
  const signals: ScoreMap = {};
  for (const [category, value] of Object.entries(scores)) {
    const score = probabilityAt(p, value, `category_scores.${category}`);
    const types = applied === undefined ? undefined : getOwn(applied, category);
    if (Array.isArray(types) && !types.includes(modality)) continue;
    const name = getOwn(OPENAI_SIGNALS, category) ?? signalNameOf(category);
    if (name !== undefined) setOwn(signals, name, score);
  }
  return signals;
}
