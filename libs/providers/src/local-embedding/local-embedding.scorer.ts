import { createHash } from 'crypto';
import { existsSync, readFileSync } from 'fs';
import { availableParallelism } from 'os';
import { dirname, join, resolve } from 'path';
import { DomainError } from '@cds/errors';
import { LocalTextClassifier } from '../local-text/local-text.classifier';
import { LocalTextSignal, foldLocalTextSignals } from '../local-text/local-text.signals';
import { BatchLimits } from './embedding-batch.rules';
import { EmbeddingHeadsFile, clearedByCascade, parseEmbeddingHeads, scoreChunks } from './embedding-heads';
import { InjectionHeadsFile, InjectionScores, injectionScores, parseInjectionHeads } from './injection-heads';
import { EmbeddingPool, EmbeddingPoolLogLevel, EmbeddingPoolState, EmbeddingPoolStats } from './embedding-pool';
import { MODELS_FETCH_COMMAND, locateE5Model } from './e5-model-files';
import { ChunkLimits, chunkText } from './text-chunks';

export const EMBEDDING_HEADS_FILE = 'embedding-heads.json';
export const INJECTION_HEADS_FILE = 'injection-heads.json';

/** model/ beside this file (sources), or the sources' copy when running from dist. */
export function defaultHeadsPath(): string {
  const candidates = [join(__dirname, 'model'), resolve(__dirname, '../../../../../libs/providers/src/local-embedding/model')];
  const dir = candidates.find((d) => existsSync(join(d, EMBEDDING_HEADS_FILE))) ?? candidates[0];
  return join(dir, EMBEDDING_HEADS_FILE);
}

export interface LocalEmbeddingScorerOptions {
  /** worker threads (one model and one core each); default: the cores available */
  workers?: number;
  /** models/e5 by default; what `npm run models:fetch` installs */
  modelDir?: string;
  headsPath?: string;
  /** the prompt-attack heads (default: injection-heads.json beside the heads file; none
   * when that file is absent, and the scorer then has no injection signals) */
  injectionHeadsPath?: string | null;
  /** the n-gram model: scores the signals without a head, and clears confident text
   * in the cascade; default LocalTextClassifier.load() */
  ngram?: LocalTextClassifier;
  /** false: embed every text, even when the heads file defines a cascade */
  cascade?: boolean;
  queueLimit?: number;
  batch?: Partial<BatchLimits>;
  log?: (level: EmbeddingPoolLogLevel, msg: string) => void;
}

export type ScorePath = 'embedding' | 'ngram-cleared';

function loadInjectionHeads(path: string | null, weightsSha256: string): { heads: InjectionHeadsFile; id: string } | null {
  if (path === null || !existsSync(path)) return null;
  const text = readFileSync(path, 'utf8');
  const heads = parseInjectionHeads(JSON.parse(text));
  if (heads.model.weightsSha256 !== weightsSha256) {
    throw new DomainError(
      'unavailable',
      'TEXT_MODEL_MISMATCH',
      `The installed text embedding model is not the one the prompt-attack heads were trained on: run \`${MODELS_FETCH_COMMAND}\``,
      `installed weights ${weightsSha256 || '(unknown)'}, ${INJECTION_HEADS_FILE} expects ${heads.model.weightsSha256}`,
    );
  }
  return { heads, id: `multilingual-e5-small-q4-L${heads.model.layer}+injection:${createHash('sha256').update(text).digest('hex').slice(0, 12)}` };
}

const sameChunks = (a: { chunks: ChunkLimits }, b: { chunks: ChunkLimits }) =>
  a.chunks.chunkChars === b.chunks.chunkChars && a.chunks.maxChunks === b.chunks.maxChunks;

/** A text's scores, the path that answered and the id of the model on that path. */
export interface PathScore {
  signals: Record<LocalTextSignal, number> & Partial<InjectionScores>;
  path: ScorePath;
  model: string;
}

/** Which model answered a text, as stored with its decision: the n-gram model when the
 * cascade cleared the text (it was never embedded), the embedding model otherwise. */
export function answeringModel(path: ScorePath, ids: { embedding: string; ngram: string }): string {
  return path === 'ngram-cleared' ? ids.ngram : ids.embedding;
}

export interface LocalEmbeddingScorerStats {
  pool: EmbeddingPoolStats;
  embedded: number;
  cleared: number;
}

/**
 * The `local` text scorer on multilingual-e5-small: the text is embedded (in chunks when
 * long) by a worker pool, and one calibrated logistic head per signal reads the embedding.
 * Same signal names as the n-gram LocalTextClassifier, so LOCAL_TEXT_SIGNAL_FOLDING
 * applies unchanged. With the cascade on, text the n-gram model is confident is clean
 * (every category far below its threshold) is answered by the n-gram model alone.
 */
export class LocalEmbeddingScorer {
  private embedded = 0;
  private cleared = 0;

  private constructor(
    /** Which model this is, as stored with each decision it scores: the embedding model and
     * the first 12 hex digits of the heads file's sha256. */
    readonly id: string,
    readonly heads: EmbeddingHeadsFile,
    private readonly pool: EmbeddingPool,
    private readonly ngram: LocalTextClassifier,
    private readonly cascadeOn: boolean,
    /** the prompt-attack heads and the id they are stored under, or null */
    readonly injection: { heads: InjectionHeadsFile; id: string } | null,
  ) {}

  /** Checks the model and heads, then starts the pool (the model loads in the background:
   * await `ready()`). Throws TEXT_MODEL_MISSING (naming `npm run models:fetch`) when the
   * model is not installed, and TEXT_MODEL_MISMATCH when the heads were trained on other
   * weights; either before any thread starts. */
  static start(o: LocalEmbeddingScorerOptions = {}): LocalEmbeddingScorer {
    const headsPath = o.headsPath ?? defaultHeadsPath();
    const headsText = readFileSync(headsPath, 'utf8');
    const heads = parseEmbeddingHeads(JSON.parse(headsText));
    const id = `multilingual-e5-small-q4+heads:${createHash('sha256').update(headsText).digest('hex').slice(0, 12)}`;
    const model = locateE5Model(o.modelDir);
    if (model.weightsSha256 !== heads.model.weightsSha256) {
      throw new DomainError(
        'unavailable',
        'TEXT_MODEL_MISMATCH',
        `The installed text embedding model is not the one the heads were trained on: run \`${MODELS_FETCH_COMMAND}\``,
        `installed weights ${model.weightsSha256 || '(unknown)'}, heads expect ${heads.model.package} ${heads.model.version} ${heads.model.weightsSha256}`,
      );
    }
    const injection = loadInjectionHeads(
      o.injectionHeadsPath === undefined ? join(dirname(headsPath), INJECTION_HEADS_FILE) : o.injectionHeadsPath,
      model.weightsSha256,
    );
    const ngram = o.ngram ?? LocalTextClassifier.load();
    const pool = EmbeddingPool.start(
      {
        workers: o.workers ?? availableParallelism(),
        queueLimit: o.queueLimit,
        batch: o.batch,
        layers: heads.model.layers,
        log: o.log,
      },
      model,
    );
    return new LocalEmbeddingScorer(id, heads, pool, ngram, o.cascade !== false && heads.cascade !== null, injection);
  }

  ready(): Promise<void> {
    return this.pool.ready();
  }

  /** One calibrated probability in [0, 1] per signal (LOCAL_TEXT_SIGNALS). `language`
   * (ISO 639-1) only steers the n-gram model's word lists; the embedding is language-free. */
  async score(text: string, language: string): Promise<Record<LocalTextSignal, number>> {
    return (await this.scoreWithPath(text, language)).signals;
  }

  /** `score`, plus which path answered (for metrics and evaluation) and the id of its model
   * (stored with the decision). */
  async scoreWithPath(text: string, language: string, injection = false): Promise<PathScore> {
    const ngram = this.ngram.score(text, language) as Record<LocalTextSignal, number>;
    const inj = injection ? this.injection : null;
    if (this.cascadeOn && this.heads.cascade && clearedByCascade(foldLocalTextSignals(ngram), this.heads.cascade.clearBelow)) {
      this.cleared++;
      if (!inj) return this.answer(ngram, 'ngram-cleared');
      return this.answer({ ...ngram, ...(await this.scoreInjection(text)) }, 'ngram-cleared');
    }
    const chunks = chunkText(text, this.heads.chunks);
    this.embedded++;
    if (!inj || !sameChunks(inj.heads, this.heads)) {
      const embeddings = await Promise.all(chunks.map((c) => this.pool.embed(c)));
      const signals = scoreChunks(this.heads.heads, embeddings, ngram);
      return this.answer(inj ? { ...signals, ...(await this.scoreInjection(text)) } : signals, 'embedding');
    }
    // One forward pass gives both: the prompt-attack heads' layer on the way to the last.
    const last = this.heads.model.layers ?? 12;
    const tap = inj.heads.model.layer;
    const layers = [...new Set([tap, last])].sort((a, b) => a - b);
    const both = await Promise.all(chunks.map((c) => this.pool.embedLayers(c, layers)));
    const signals = scoreChunks(
      this.heads.heads,
      both.map((b) => b[layers.indexOf(last)]),
      ngram,
    );
    const attack = injectionScores(
      inj.heads,
      both.map((b) => b[layers.indexOf(tap)]),
    );
    return this.answer({ ...signals, ...attack }, 'embedding');
  }

  /** The prompt-attack heads' probabilities for a text (a pass through the heads' layer
   * only: no moderation heads); null when this scorer has no such heads. */
  async scoreInjection(text: string): Promise<InjectionScores | null> {
    const inj = this.injection;
    if (!inj) return null;
    const chunks = chunkText(text, inj.heads.chunks);
    const embeddings = await Promise.all(chunks.map((c) => this.pool.embedLayers(c, [inj.heads.model.layer])));
    return injectionScores(
      inj.heads,
      embeddings.map((e) => e[0]),
    );
  }

  private answer(signals: Record<LocalTextSignal, number>, path: ScorePath): PathScore {
    return { signals, path, model: answeringModel(path, { embedding: this.id, ngram: this.ngram.id }) };
  }

  /** The pool's state: `ready` once every thread has the model. */
  get state(): EmbeddingPoolState {
    return this.pool.state;
  }

  /** Texts waiting for an embedding thread. */
  queued(): number {
    return this.pool.queued();
  }

  stats(): LocalEmbeddingScorerStats {
    return { pool: this.pool.stats(), embedded: this.embedded, cleared: this.cleared };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
