import { ScoreMap } from '@cds/events';
import { getOwn, setOwn, SignalFolding } from '@cds/policy';
import { badResponse } from './provider-call.error';
import { listAt, recordAt, signalNameOf, stringAt } from './response-shape';

export const AZURE_PROVIDER = 'azure';

/** The harm categories asked for, as Azure names them. */
export const AZURE_CATEGORIES = ['Hate', 'SelfHarm', 'Sexual', 'Violence'] as const;

/** Azure category → signal. */
export const AZURE_SIGNALS: Readonly<Record<string, string>> = Object.freeze({ Hate: 'hate', SelfHarm: 'self_harm', Sexual: 'sexual', Violence: 'violence' });

/** Azure has no harassment category (bullying falls under its Hate); `blocklist` folds nowhere.
 * Prompt Shields (text:shieldPrompt, asked only when a policy names prompt_injection or
 * jailbreak): a User Prompt attack covers both jailbreaks and attempts to change the
 * system's rules, so it folds into both; a Document attack (instructions planted in data)
 * is a prompt injection. */
export const AZURE_SIGNAL_FOLDING: SignalFolding = Object.freeze({
  sexual: Object.freeze(['sexual']),
  hate: Object.freeze(['hate']),
  violence: Object.freeze(['violence']),
  'self-harm': Object.freeze(['self_harm']),
  prompt_injection: Object.freeze(['user_prompt_attack', 'document_attack']),
  jailbreak: Object.freeze(['user_prompt_attack']),
});

/**
 * Signals of a text:shieldPrompt answer for one text sent as both the user prompt and the
 * one document (we do not know which it is): `user_prompt_attack` and `document_attack`,
 * 1 when Prompt Shields detected that attack, else 0.
 */
export function azureShieldSignalsOf(json: unknown): ScoreMap {
  const p = AZURE_PROVIDER;
  const answer = recordAt(p, json, 'answer');
  const user = recordAt(p, answer.userPromptAnalysis, 'userPromptAnalysis');
  const docs = listAt(p, answer.documentsAnalysis, 'documentsAnalysis');
  if (docs.length !== 1) throw badResponse(p, `documentsAnalysis has ${docs.length} entries, 1 was sent`);
  const detected = (v: unknown, field: string) => {
    if (typeof v !== 'boolean') throw badResponse(p, `${field} is not a boolean`);
    return v ? 1 : 0;
  };
  return {
    user_prompt_attack: detected(user.attackDetected, 'userPromptAnalysis.attackDetected'),
    document_attack: detected(recordAt(p, docs[0], 'documentsAnalysis[0]').attackDetected, 'documentsAnalysis[0].attackDetected'),
  };
}

/**
 * Severity (FourSeverityLevels: 0 safe, 2 low, 4 medium, 6 high) → score. Medium maps to
 * 0.8 so the default policy (thresholds 0.5–0.8) acts from medium up, the level Azure's
 * own default content filter blocks at; low (0.4) stays under every default threshold.
 * Odd levels (EightSeverityLevels) fall between their neighbours; 7 is 1.
 */
export const AZURE_SEVERITY_SCORES: Readonly<Record<number, number>> = Object.freeze({ 0: 0, 1: 0.2, 2: 0.4, 3: 0.6, 4: 0.8, 5: 0.9, 6: 1, 7: 1 });

export function severityScore(severity: unknown): number {
  const score = typeof severity === 'number' && Number.isInteger(severity) ? AZURE_SEVERITY_SCORES[severity] : undefined;
  if (score === undefined) throw badResponse(AZURE_PROVIDER, `severity ${JSON.stringify(severity)} is not a level 0-7`);
  return score;
}

/** `blocklist_<name>`: a blocklist's own signal; undefined when the name cannot be one. */
export function blocklistSignal(blocklistName: string): string | undefined {
  return signalNameOf(`blocklist_${blocklistName.toLowerCase()}`.slice(0, 64));
}

/**
 * Signals of a text:analyze or image:analyze answer: one per category in
 * `categoriesAnalysis`, and with blocklists, `blocklist` (1 when any configured list
 * matched, else 0) and `blocklist_<name>` per list.
 */
export function azureSignalsOf(json: unknown, blocklists: readonly string[]): ScoreMap {
  const p = AZURE_PROVIDER;
  const answer = recordAt(p, json, 'answer');
  const analysis = listAt(p, answer.categoriesAnalysis, 'categoriesAnalysis');
  if (analysis.length === 0) throw badResponse(p, 'categoriesAnalysis is empty');
  const signals: ScoreMap = {};
  for (const [i, entry] of analysis.entries()) {
    const item = recordAt(p, entry, `categoriesAnalysis[${i}]`);
    const category = stringAt(p, item.category, `categoriesAnalysis[${i}].category`);
    const name = getOwn(AZURE_SIGNALS, category) ?? signalNameOf(category);
    if (name !== undefined) setOwn(signals, name, severityScore(item.severity));
  }
  if (blocklists.length === 0) return signals;
  const matches = answer.blocklistsMatch === undefined || answer.blocklistsMatch === null ? [] : listAt(p, answer.blocklistsMatch, 'blocklistsMatch');
  const hit = new Set(matches.map((m, i) => stringAt(p, recordAt(p, m, `blocklistsMatch[${i}]`).blocklistName, `blocklistsMatch[${i}].blocklistName`)));
  signals.blocklist = hit.size > 0 ? 1 : 0;
  for (const list of blocklists) {
    const name = blocklistSignal(list);
    if (name !== undefined) setOwn(signals, name, hit.has(list) ? 1 : 0);
  }
  return signals;
}
