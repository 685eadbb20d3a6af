import { ScoreMap } from '@cds/events';
import { getOwn, setOwn } from './own-record';
import { DryRunScoresInput, SignalFolding } from './policy.types';
import { validateScores } from './score-map.validator';

/** The spec's five categories over the usual provider signal names. */
export const DEFAULT_SIGNAL_FOLDING: SignalFolding = Object.freeze({
  sexual: Object.freeze(['sexual', 'sexual_explicit', 'sexual_minors']),
  hate: Object.freeze(['hate', 'hate_threat']),
  harassment: Object.freeze(['harassment', 'harassment_threat', 'harassment_insult']),
  violence: Object.freeze(['violence', 'violence_threat', 'violence_graphic']),
  'self-harm': Object.freeze(['self_harm', 'self_harm_intent', 'self_harm_instructions']),
});

/** Categories beyond the spec's five that providers score only when a policy names them
 * (ScoreRequest.injection): a prompt-attack pass or call that other checks never pay for.
 * Not in the default policy. */
export const PROMPT_ATTACK_CATEGORIES = ['prompt_injection', 'jailbreak'] as const;

/**
 * Provider signals -> category scores. Every signal stays available under its own
 * name (so a policy can threshold `hate_threat` directly), and each category of
 * the folding scores the max of its signals and of a signal with its own name.
 * A category none of whose signals is present gets no score (evaluation reads 0).
 */
export function foldSignals(signals: ScoreMap, folding: SignalFolding = DEFAULT_SIGNAL_FOLDING): ScoreMap {
  const out: ScoreMap = {};
  for (const name of Object.keys(signals)) {
    const v = signals[name];
    if (isScore(v)) setOwn(out, name, v);
  }
  for (const category of Object.keys(folding)) {
    let best = getOwn(out, category);
    for (const signal of folding[category]) {
      const v = getOwn(signals, signal);
      if (isScore(v) && (best === undefined || v > best)) best = v;
    }
    if (best !== undefined) setOwn(out, category, best);
  }
  return out;
}

/**
 * The category scores a dry run evaluates: `mockSignals` (folded) when given,
 * else `mockScores` as they are, else none (every category scores 0). Whatever is
 * given is validated, including mockScores when mockSignals takes precedence.
 */
export function scoresForDryRun(input: DryRunScoresInput, folding: SignalFolding = DEFAULT_SIGNAL_FOLDING): ScoreMap {
  const scores = given(input.mockScores) ? validateScores(input.mockScores, 'mockScores') : undefined;
  const signals = given(input.mockSignals) ? validateScores(input.mockSignals, 'mockSignals') : undefined;
  if (signals) return foldSignals(signals, folding);
  return scores ?? {};
}

function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function isScore(v: unknown): v is number {
  return typeof v === 'number' && !Number.isNaN(v);
}
