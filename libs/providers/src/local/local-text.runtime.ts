import { DomainError } from '@cds/errors';
import { ScoreMap } from '@cds/events';
import { promptAttackRuleScores } from '@cds/guardrails';
import { InjectionScores, skillThreshold } from '../local-embedding/injection-heads';
import { LocalTextClassifier } from '../local-text/local-text.classifier';
import { LocalEmbeddingScorer, PathScore } from '../local-embedding/local-embedding.scorer';
import { TextScoreCache, TextScoreCacheStats, scoringForm, textScoreKey } from './text-score.cache';

export type LocalTextModelKind = 'embedding' | 'ngram';

/** Answers of the embedding model kept by content (LOCAL_TEXT_CACHE_ENTRIES): at most
 * ~0.9 KB each, so ~18 MB at this default. */
export const DEFAULT_TEXT_CACHE_ENTRIES = 20_000;

/** A text's scores and the model that answered (stored with the decision). */
export interface TextScore {
  signals: ScoreMap;
  model: string;
}

/** The text model as the local provider uses it: LocalTextRuntime, or anything with its shape. */
export interface TextScorer {
  /** `injection`: add the prompt_injection and jailbreak signals (a policy asks for them). */
  score(text: string, language: string, injection?: boolean): TextScore | Promise<TextScore>;
}

/** What skill vetting reads of a prompt: the prompt-attack heads' probabilities, the
 * threshold they were validated at, and the model that gave them. */
export interface PromptAttackScore extends InjectionScores {
  threshold: number;
  model: string;
}

export interface LocalTextRuntimeOptions {
  kind: LocalTextModelKind;
  /** threads of the embedding model */
  workers: number;
  log: (level: 'log' | 'warn' | 'error', message: string) => void;
  /** the n-gram model (default LocalTextClassifier.load()): the whole model under `ngram`;
   * under `embedding`, the cascade's first pass and the signals without a head */
  ngram?: LocalTextClassifier;
  /** where `npm run models:fetch` installed the embedding model (default models/e5, or
   * LOCAL_EMBEDDING_MODEL_DIR) */
  modelDir?: string;
  /** answers of the embedding model kept by content (0: none); DEFAULT_TEXT_CACHE_ENTRIES */
  cacheEntries?: number;
  /** texts waiting for an embedding thread beyond which `score` rejects at once with
   * TEXT_QUEUE_FULL (DEFAULT_EMBEDDING_QUEUE_LIMIT) */
  queueLimit?: number;
  /** false: every text runs every encoder layer (default true: the early exits of
   * model/embedding-exit.json, when calibrated against the model) */
  earlyExit?: boolean;
}

/**
 * The `local` provider's text model, chosen by LOCAL_TEXT_MODEL. `ngram` scores on the
 * calling thread. `embedding` starts its worker pool once per process: at boot (every
 * role but the projector, which scores nothing) or at the first text, and refuses to
 * start with TEXT_MODEL_MISSING, naming `npm run models:fetch`, when the model is not
 * installed: never a silent fall back to the other model.
 */
export class LocalTextRuntime implements TextScorer {
  private readonly ngram: LocalTextClassifier;
  private embedding: LocalEmbeddingScorer | null = null;
  private readonly cache: TextScoreCache<PathScore>;

  constructor(private readonly options: LocalTextRuntimeOptions) {
    this.ngram = options.ngram ?? LocalTextClassifier.load();
    this.cache = new TextScoreCache(options.cacheEntries ?? DEFAULT_TEXT_CACHE_ENTRIES);
  }

  get kind(): LocalTextModelKind {
    return this.options.kind;
  }

  /** Starts the embedding pool (a no-op under `ngram`). Throws TEXT_MODEL_MISSING /
   * TEXT_MODEL_MISMATCH synchronously; the model then loads in the background. */
  start(): void {
    if (this.options.kind === 'ngram' || this.embedding) return;
    const { workers, log } = this.options;
    log('log', `loading the text embedding model in ${workers} worker thread(s)`);
    const scorer = startOrExplain(() =>
      LocalEmbeddingScorer.start({
        workers,
        ngram: this.ngram,
        log,
        modelDir: this.options.modelDir,
        queueLimit: this.options.queueLimit,
        earlyExit: this.options.earlyExit,
      }),
    );
    this.embedding = scorer;
    scorer.ready().then(
      () => log('log', 'text embedding model ready'),
      (err: Error) => {
        // Closed while it was loading (a process stopped soon after its start): no failure.
        if (this.embedding === scorer) log('error', `text embedding model unavailable: ${err.message}`);
      },
    );
  }

  /** Resolves once the model can score (at once under `ngram`). */
  async ready(): Promise<void> {
    this.start();
    await this.embedding?.ready();
  }

  /** `ready` when a text can be scored now: always under `ngram`; under `embedding` once
   * every thread has the model (`idle`: not started, as in the projector). */
  get state(): 'idle' | 'loading' | 'ready' | 'failed' {
    if (this.options.kind === 'ngram') return 'ready';
    return this.embedding ? this.embedding.state : 'idle';
  }

  /** Texts waiting for an embedding thread. */
  queued(): number {
    return this.embedding ? this.embedding.queued() : 0;
  }

  /** The scores and the model that answered: the n-gram model under `ngram`, and under
   * `embedding` when the cascade cleared the text. Under `embedding`, failures are 503s:
   * TEXT_MODEL_UNAVAILABLE, TEXT_QUEUE_FULL, TEXT_WORKER_CRASHED; the model reads the text's
   * scoring form (`scoringForm`), and its answers are kept by that form, the model and the
   * language (the cache's), so a text seen again, or sent many times at once, is scored once.
   * `injection`: the prompt-attack signals too (the heads' and the rules', which read the
   * raw text: invisible characters are evidence); kept apart in the cache. */
  score(text: string, language: string, injection = false): TextScore | Promise<TextScore> {
    if (this.options.kind === 'ngram') {
      const signals = this.ngram.score(text, language);
      return { signals: injection ? { ...signals, ...promptAttackRuleScores(text) } : signals, model: this.ngram.id };
    }
    this.start();
    const scorer = this.embedding!;
    const form = scoringForm(text);
    const model = injection && scorer.injection ? `${scorer.id}+${scorer.injection.id}` : scorer.id;
    const answer = this.cache.get(textScoreKey(model, language, form), () => scorer.scoreWithPath(form, language, injection));
    // each caller gets its own copy of the shared answer
    return answer.then((r) => ({ signals: injection ? withRules(r.signals, text) : { ...r.signals }, model: r.model }));
  }

  /** The prompt-attack heads on a skill's prompt (one pass through the heads' layer), or
   * null under `ngram` or without heads: skill vetting then reads the prompt with its
   * rules alone. Failures are the embedding model's 503s. */
  async scorePromptAttack(text: string): Promise<PromptAttackScore | null> {
    if (this.options.kind === 'ngram') return null;
    this.start();
    const scorer = this.embedding!;
    const inj = scorer.injection;
    const scores = inj ? await scorer.scoreInjection(text) : null;
    return inj && scores ? { ...scores, threshold: skillThreshold(inj.heads), model: inj.id } : null;
  }

  /** The embedding model's answers kept by content, and how often they were reused. */
  cacheStats(): TextScoreCacheStats {
    return this.cache.stats();
  }

  /** How the texts scored since the start were answered, by path: from the cache
   * (`cache`: an answer kept, or a pass already running for the same text), by the n-gram
   * cascade (`ngram-cleared`), and per chunk by the layer it left the encoder at
   * (`layer-12`: every layer; `layer-4`: an early exit). Empty under `ngram`. */
  answeredBy(): Record<string, number> {
    const scorer = this.embedding;
    if (!scorer) return {};
    const cache = this.cache.stats();
    const s = scorer.stats();
    const out: Record<string, number> = { cache: cache.hits + cache.joined, 'ngram-cleared': s.cleared };
    for (const [layer, n] of Object.entries(s.leftAt)) out[`layer-${layer}`] = n;
    return out;
  }

  async close(): Promise<void> {
    const scorer = this.embedding;
    this.embedding = null;
    await scorer?.close();
  }
}

/** Under `embedding` the rules still read what a model reads past (invisible characters,
 * self-hiding steering): each signal is the higher of the head and the rules. */
function withRules(signals: ScoreMap, text: string): ScoreMap {
  const rules = promptAttackRuleScores(text);
  return {
    ...signals,
    prompt_injection: Math.max(signals.prompt_injection ?? 0, rules.prompt_injection),
    jailbreak: Math.max(signals.jailbreak ?? 0, rules.jailbreak),
  };
}

/** A missing or mismatched model stops the process: the message says which setting asked
 * for it, the command that installs it, and the other choice. */
function startOrExplain(start: () => LocalEmbeddingScorer): LocalEmbeddingScorer {
  try {
    return start();
  } catch (err) {
    if (err instanceof DomainError && (err.code === 'TEXT_MODEL_MISSING' || err.code === 'TEXT_MODEL_MISMATCH')) {
      throw new DomainError(err.kind, err.code, `LOCAL_TEXT_MODEL=embedding: ${err.message} (or set LOCAL_TEXT_MODEL=ngram)`, err.details);
    }
    throw err;
  }
}
