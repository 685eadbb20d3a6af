import { ScoreMap } from '@cds/events';
import { SignalFolding } from '@cds/policy';
import { badResponse } from './provider-call.error';
import { listAt, recordAt } from './response-shape';

export const LLAMAGUARD_PROVIDER = 'llamaguard';

/** The Llama Guard 3 hazard taxonomy (MLCommons), code → signal. */
export const LLAMAGUARD_HAZARDS: Readonly<Record<string, string>> = Object.freeze({
  S1: 's1_violent_crimes',
  S2: 's2_non_violent_crimes',
  S3: 's3_sex_related_crimes',
  S4: 's4_child_sexual_exploitation',
  S5: 's5_defamation',
  S6: 's6_specialized_advice',
  S7: 's7_privacy',
  S8: 's8_intellectual_property',
  S9: 's9_indiscriminate_weapons',
  S10: 's10_hate',
  S11: 's11_suicide_self_harm',
  S12: 's12_sexual_content',
  S13: 's13_elections',
  S14: 's14_code_interpreter_abuse',
});

/** Llama Guard has no harassment hazard; S2, S5–S8, S13, S14 and `unsafe` fold nowhere. */
export const LLAMAGUARD_SIGNAL_FOLDING: SignalFolding = Object.freeze({
  sexual: Object.freeze(['s3_sex_related_crimes', 's4_child_sexual_exploitation', 's12_sexual_content']),
  hate: Object.freeze(['s10_hate']),
  violence: Object.freeze(['s1_violent_crimes', 's9_indiscriminate_weapons']),
  'self-harm': Object.freeze(['s11_suicide_self_harm']),
  prompt_injection: Object.freeze(['prompt_guard_malicious', 'prompt_guard_injection']),
  jailbreak: Object.freeze(['prompt_guard_malicious', 'prompt_guard_jailbreak']),
});

/**
 * Signals of a Prompt Guard answer from a classification endpoint (`/classify`, the
 * vLLM / SGLang shape: `data[0].probs`, one probability per class). Prompt Guard 2 has two
 * classes (benign, malicious): `prompt_guard_malicious`, folded into both prompt_injection
 * and jailbreak. Prompt Guard 1 has three (benign, injection, jailbreak):
 * `prompt_guard_injection` and `prompt_guard_jailbreak`.
 */
export function promptGuardSignalsOf(json: unknown): ScoreMap {
  const p = LLAMAGUARD_PROVIDER;
  const data = listAt(p, recordAt(p, json, 'answer').data, 'data');
  if (data.length !== 1) throw badResponse(p, `data has ${data.length} entries, 1 text was sent`);
  const probs = listAt(p, recordAt(p, data[0], 'data[0]').probs, 'data[0].probs');
  if (!probs.every((x) => typeof x === 'number' && x >= 0 && x <= 1)) throw badResponse(p, 'data[0].probs holds a value outside [0, 1]');
  const [, a, b] = probs as number[];
  if (probs.length === 2) return { prompt_guard_malicious: a };
  if (probs.length === 3) return { prompt_guard_injection: a, prompt_guard_jailbreak: b };
  throw badResponse(p, `data[0].probs has ${probs.length} classes (Prompt Guard has 2 or 3)`);
}

export interface LlamaGuardVerdict {
  unsafe: boolean;
  /** Hazard codes of the second line, known ones only (`S1`..`S14`). */
  codes: string[];
}

/** The answer text: first line `safe` or `unsafe`, then (when unsafe) `S1,S10`. */
export function parseVerdict(content: string): LlamaGuardVerdict {
  const lines = content
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  const first = lines[0]?.toLowerCase();
  if (first !== 'safe' && first !== 'unsafe') throw badResponse(LLAMAGUARD_PROVIDER, `answer is not safe/unsafe: ${JSON.stringify(content.slice(0, 40))}`);
  if (first === 'safe') return { unsafe: false, codes: [] };
  const codes = (lines[1] ?? '')
    .split(/[\s,]+/)
    .map((c) => c.toUpperCase())
    .filter((c) => Object.prototype.hasOwnProperty.call(LLAMAGUARD_HAZARDS, c));
  return { unsafe: true, codes: [...new Set(codes)] };
}

/**
 * P(unsafe) from the logprobs of the first answer token (OpenAI chat-completions shape:
 * `choices[0].logprobs.content[i].{token, logprob, top_logprobs}`): the mass of "unsafe"
 * over that of "unsafe" and "safe". Undefined when the server sent none, or the first
 * token is neither word (the caller then uses 1 for unsafe, 0 for safe).
 */
export function unsafeProbability(logprobs: unknown): number | undefined {
  if (typeof logprobs !== 'object' || logprobs === null) return undefined;
  const content = (logprobs as { content?: unknown }).content;
  if (!Array.isArray(content)) return undefined;
  // Some templates make the model open with blank lines: the verdict is the first word.
  const first = content.find((t) => typeof t === 'object' && t !== null && normalize((t as { token?: unknown }).token) !== '') as
    { token: string; logprob?: unknown; top_logprobs?: unknown } | undefined;
  if (!first) return undefined;
  const byToken = new Map<string, number>();
  for (const c of [first, ...(Array.isArray(first.top_logprobs) ? first.top_logprobs : [])]) {
    const { token, logprob } = (c ?? {}) as { token?: unknown; logprob?: unknown };
    if (typeof token === 'string' && typeof logprob === 'number' && Number.isFinite(logprob)) byToken.set(token, logprob);
  }
  let unsafe = 0;
  let safe = 0;
  for (const [token, logprob] of byToken) {
    const word = normalize(token);
    if (word === 'unsafe') unsafe += Math.exp(logprob);
    else if (word === 'safe') safe += Math.exp(logprob);
  }
  if (unsafe + safe === 0) return undefined;
  return Math.round((unsafe / (unsafe + safe)) * 1e6) / 1e6;
}

/** The token as a word: BPE space markers (`Ġ`, `▁`) and whitespace trimmed, lowercase. */
function normalize(token: unknown): string {
  return typeof token === 'string' ? token.replace(/^[\sĠ▁]+|[\sĠ▁]+$/gu, '').toLowerCase() : '';
}

/**
 * Signals of a chat-completions answer: `unsafe` = P(unsafe), and each hazard the model
 * named scores P(unsafe), the others 0.
 */
export function llamaGuardSignalsOf(json: unknown): ScoreMap {
  const p = LLAMAGUARD_PROVIDER;
  const choices = listAt(p, recordAt(p, json, 'answer').choices, 'choices');
  if (choices.length === 0) throw badResponse(p, 'choices is empty');
  const choice = recordAt(p, choices[0], 'choices[0]');
  const content = recordAt(p, choice.message, 'choices[0].message').content;
  if (typeof content !== 'string') throw badResponse(p, 'choices[0].message.content is not a string');
  const verdict = parseVerdict(content);
  const probability = unsafeProbability(choice.logprobs) ?? (verdict.unsafe ? 1 : 0);
  const signals: ScoreMap = { unsafe: probability };
  for (const [code, signal] of Object.entries(LLAMAGUARD_HAZARDS)) signals[signal] = verdict.codes.includes(code) ? probability : 0;
  return signals;
}
