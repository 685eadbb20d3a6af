import { createHash } from 'crypto';
import { existsSync, readFileSync } from 'fs';
import { availableParallelism } from 'os';
import { dirname, join, resolve } from 'path';
import { DomainError } from '@cds/errors';
import { LocalTextClassifier } from '../local-text/local-text.classifier';
import { LocalTextSignal, foldLocalTextSignals } from '../local-text/local-text.signals';
import { BatchLimits } from './embedding-batch.rules';
import { EmbeddingHeadsFile, clearedByCascade, parseEmbeddingHeads, scoreChunks } from './embedding-heads';
import { EmbeddingPool, EmbeddingPoolLogLevel, EmbeddingPoolState, EmbeddingPoolStats } from './embedding-pool';
import { MODELS_FETCH_COMMAND, locateE5Model } from './e5-model-files';
import { chunkText } from './text-chunks';

export const EMBEDDING_HEADS_FILE = 'embedding-heads.json';

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

/** A text's scores, the path that answered and the id of the model on that path. */
export interface PathScore {
  signals: Record<LocalTextSignal, number>;
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
    const overlayPath = heads.model.overlay ? checkedOverlay(headsPath, heads.model.overlay) : undefined;
    const ngram = o.ngram ?? LocalTextClassifier.load();
    const pool = EmbeddingPool.start(
      {
        workers: o.workers ?? availableParallelism(),
        queueLimit: o.queueLimit,
        batch: o.batch,
        layers: heads.model.layers,
        overlayPath,
        log: o.log,
      },
      model,
    );
    return new LocalEmbeddingScorer(id, heads, pool, ngram, o.cascade !== false && heads.cascade !== null);
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
  async scoreWithPath(text: string, language: string): Promise<PathScore> {
    const ngram = this.ngram.score(text, language) as Record<LocalTextSignal, number>;
    if (this.cascadeOn && this.heads.cascade && clearedByCascade(foldLocalTextSignals(ngram), this.heads.cascade.clearBelow)) {
      this.cleared++;
      return this.answer(ngram, 'ngram-cleared');
    }
    const chunks = chunkText(text, this.heads.chunks);
    const embeddings = await Promise.all(chunks.map((c) => this.pool.embed(c)));
    this.embedded++;
    return this.answer(scoreChunks(this.heads.heads, embeddings, ngram), 'embedding');
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

/** The overlay the heads name, beside the heads file, if its sha256 is the pinned one
 * (TEXT_MODEL_MISSING when absent, TEXT_MODEL_MISMATCH when it differs). */
export function checkedOverlay(headsPath: string, overlay: { file: string; sha256: string }): string {
  const path = join(dirname(headsPath), overlay.file);
  if (!existsSync(path)) {
    throw new DomainError('unavailable', 'TEXT_MODEL_MISSING', 'The fine-tuned layers of the text model are missing', `missing ${path}`);
  }
  const got = createHash('sha256').update(readFileSync(path)).digest('hex');
  if (got !== overlay.sha256) {
    throw new DomainError(
      'unavailable',
      'TEXT_MODEL_MISMATCH',
      'The fine-tuned layers of the text model are not the ones the heads were trained with',
      `${path}: sha256 ${got}, heads expect ${overlay.sha256}`,
    );
  }
  return path;
}
