import { createHash } from 'crypto';
import { existsSync, readFileSync } from 'fs';
import { availableParallelism } from 'os';
import { dirname, join, resolve } from 'path';
import { DomainError } from '@cds/errors';
import { LocalTextClassifier } from '../local-text/local-text.classifier';
import { LocalTextSignal, foldLocalTextSignals } from '../local-text/local-text.signals';
import { BatchLimits } from './embedding-batch.rules';
import { EmbeddingHeadsFile, clearedByCascade, parseEmbeddingHeads, scoreChunks } from './embedding-heads';
import { EmbeddingExitFile, parseEmbeddingExit, scoreLayeredChunks, workerExits } from './embedding-exit';
import { featureLayers, featureVector, InjectionHeadsFile, InjectionScores, injectionScores, parseInjectionHeads } from './injection-heads';
import { EmbeddingPool, EmbeddingPoolLogLevel, EmbeddingPoolState, EmbeddingPoolStats } from './embedding-pool';
import { locateE5Model } from './e5-model-files';
import { MODELS_FETCH_COMMAND } from '../model-files/model-files';
import { ChunkLimits, chunkText } from './text-chunks';

export const EMBEDDING_HEADS_FILE = 'embedding-heads.json';
export const INJECTION_HEADS_FILE = 'injection-heads.json';
export const EMBEDDING_EXIT_FILE = 'embedding-exit.json';
/** What retrains the early exits against the model as it is. */
export const TRAIN_EXIT_COMMAND = 'npm run train:text:exit';

/** model/ beside this file (sources), or the sources' copy when running from dist. */
export function defaultHeadsPath(): string {
  const candidates = [join(__dirname, 'model'), resolve(__dirname, '../../../../../libs/providers/src/local-embedding/model')];
  const dir = candidates.find((d) => existsSync(join(d, EMBEDDING_HEADS_FILE))) ?? candidates[0];
  return join(dir, EMBEDDING_HEADS_FILE);
}

const sha12 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

/** The full model's id, as stored with each decision it scores: the embedding model and the
 * first 12 hex digits of the heads file's sha256. */
export function headsModelId(headsText: string): string {
  return `multilingual-e5-small-q4+heads:${sha12(headsText)}`;
}

/** Why an exit file cannot serve these heads (it was calibrated against another model, or
 * misses a signal they score), or null when it can. */
export function staleExit(exit: EmbeddingExitFile, heads: EmbeddingHeadsFile, headsId: string): string | null {
  if (exit.calibratedFor.model !== headsId || exit.calibratedFor.weightsSha256 !== heads.model.weightsSha256)
    return `the exits were calibrated against ${exit.calibratedFor.model}, the model is ${headsId}`;
  for (const e of exit.exits) {
    const missing = Object.keys(heads.heads).filter((s) => !(s in e.heads));
    if (missing.length > 0) return `the exit at layer ${e.layer} has no head for ${missing.join(', ')}`;
    if (heads.model.layers !== undefined && e.layer >= heads.model.layers) return `the exit at layer ${e.layer} is not before the model's last layer`;
  }
  return null;
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
  /** model/embedding-exit.json by default (when present) */
  exitPath?: string;
  /** false: every text runs every layer, even when an exit file is present */
  earlyExit?: boolean;
  queueLimit?: number;
  batch?: Partial<BatchLimits>;
  log?: (level: EmbeddingPoolLogLevel, msg: string) => void;
}

export type ScorePath = 'embedding' | 'early-exit' | 'ngram-cleared';

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
 * cascade cleared the text (it was never embedded), the embedding model otherwise; when a
 * chunk left at an early exit, the exits' id and the layers its chunks left at
 * (`…+exit:<sha>@4`, `…@4,12` for a long text whose chunks left at different layers). */
export function answeringModel(path: ScorePath, ids: { embedding: string; ngram: string; exit?: string }, layers: number[] = []): string {
  if (path === 'ngram-cleared') return ids.ngram;
  if (path === 'early-exit') return `${ids.embedding}+exit:${ids.exit}@${[...new Set(layers)].sort((a, b) => a - b).join(',')}`;
  return ids.embedding;
}

export interface LocalEmbeddingScorerStats {
  pool: EmbeddingPoolStats;
  embedded: number;
  cleared: number;
  /** chunks by the layer they left at (the last layer: no early exit) */
  leftAt: Record<number, number>;
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
  private readonly leftAt: Record<number, number> = {};
  private readonly exitHeads: Map<number, EmbeddingHeadsFile['heads']>;

  private constructor(
    /** The full model's id (headsModelId), as stored with each decision it answers. */
    readonly headsId: string,
    readonly heads: EmbeddingHeadsFile,
    private readonly pool: EmbeddingPool,
    private readonly ngram: LocalTextClassifier,
    private readonly cascadeOn: boolean,
    /** the early exits in use, and the first 12 hex digits of their file's sha256 */
    readonly exit: { file: EmbeddingExitFile; id: string } | null,
    /** the prompt-attack heads and the id they are stored under, or null */
    readonly injection: { heads: InjectionHeadsFile; id: string } | null,
  ) {
    this.exitHeads = new Map((exit?.file.exits ?? []).map((e) => [e.layer, e.heads]));
  }

  /** What answers a text: the full model's id, and the early exits' when they are on (their
   * answers differ, so a cache must tell the two apart). */
  get id(): string {
    return this.exit ? `${this.headsId}+exit:${this.exit.id}` : this.headsId;
  }

  /** Checks the model and heads, then starts the pool (the model loads in the background:
   * await `ready()`). Throws TEXT_MODEL_MISSING (naming `npm run models:fetch`) when the
   * model is not installed, and TEXT_MODEL_MISMATCH when the heads were trained on other
   * weights; either before any thread starts. */
  static start(o: LocalEmbeddingScorerOptions = {}): LocalEmbeddingScorer {
    const headsPath = o.headsPath ?? defaultHeadsPath();
    const headsText = readFileSync(headsPath, 'utf8');
    const heads = parseEmbeddingHeads(JSON.parse(headsText));
    const id = headsModelId(headsText);
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
    const overlayPath = heads.model.overlay ? checkedOverlay(headsPath, heads.model.overlay) : undefined;
    const ngram = o.ngram ?? LocalTextClassifier.load();
    const exit = o.earlyExit === false ? null : loadExit(o.exitPath ?? join(dirname(headsPath), EMBEDDING_EXIT_FILE), heads, id, o.log);
    const pool = EmbeddingPool.start(
      {
        workers: o.workers ?? availableParallelism(),
        queueLimit: o.queueLimit,
        batch: o.batch,
        layers: heads.model.layers,
        overlayPath,
        exits: exit ? workerExits(exit.file) : [],
        log: o.log,
      },
      model,
    );
    return new LocalEmbeddingScorer(id, heads, pool, ngram, o.cascade !== false && heads.cascade !== null, exit, injection);
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
    if (inj && sameChunks(inj.heads, this.heads)) {
      // One forward pass gives both: the prompt-attack heads' layer on the way to the last
      // (every chunk runs to the last layer: no early exit).
      const last = this.heads.model.layers ?? 12;
      const taps = featureLayers(inj.heads);
      const layers = [...new Set([...taps, last])].sort((a, b) => a - b);
      const both = await Promise.all(chunks.map((c) => this.pool.embedLayers(c, layers)));
      this.leftAt[last] = (this.leftAt[last] ?? 0) + chunks.length;
      const signals = scoreChunks(
        this.heads.heads,
        both.map((b) => b[layers.indexOf(last)]),
        ngram,
      );
      const attack = injectionScores(
        inj.heads,
        both.map((b) => featureVector(taps.map((t) => b[layers.indexOf(t)]))),
      );
      return this.answer({ ...signals, ...attack }, 'embedding');
    }
    const moderation = await this.scoreModeration(chunks, ngram);
    if (!inj) return moderation;
    return { ...moderation, signals: { ...moderation.signals, ...(await this.scoreInjection(text)) } };
  }

  /** The moderation heads on the pool's pass (early exits included) over a text's chunks. */
  private async scoreModeration(chunks: string[], ngram: Record<LocalTextSignal, number>): Promise<PathScore> {
    const encoded = await Promise.all(chunks.map((c) => this.pool.encode(c)));
    const last = this.pool.layers;
    for (const e of encoded) this.leftAt[e.layer] = (this.leftAt[e.layer] ?? 0) + 1;
    if (encoded.every((e) => e.layer === last)) {
      return this.answer(
        scoreChunks(
          this.heads.heads,
          encoded.map((e) => e.embedding),
          ngram,
        ),
        'embedding',
      );
    }
    const headsAt = (layer: number) => (layer === last ? this.heads.heads : this.exitHeads.get(layer)!);
    const layers = encoded.map((e) => e.layer);
    return this.answer(scoreLayeredChunks(headsAt, encoded, ngram), 'early-exit', layers);
  }

  /** The prompt-attack heads' probabilities for a text (a pass through the heads' layers
   * only: no moderation heads); null when this scorer has no such heads. */
  async scoreInjection(text: string): Promise<InjectionScores | null> {
    const inj = this.injection;
    if (!inj) return null;
    const chunks = chunkText(text, inj.heads.chunks);
    const embeddings = await Promise.all(chunks.map((c) => this.pool.embedLayers(c, featureLayers(inj.heads))));
    return injectionScores(inj.heads, embeddings.map(featureVector));
  }

  private answer(signals: PathScore['signals'], path: ScorePath, layers: number[] = []): PathScore {
    return { signals, path, model: answeringModel(path, { embedding: this.headsId, ngram: this.ngram.id, exit: this.exit?.id }, layers) };
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
    return { pool: this.pool.stats(), embedded: this.embedded, cleared: this.cleared, leftAt: { ...this.leftAt } };
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

/** The exit file beside the heads, when there is one and it was calibrated against them;
 * otherwise none (every text runs every layer), with a warning naming the command that
 * calibrates them again. */
function loadExit(
  path: string,
  heads: EmbeddingHeadsFile,
  headsId: string,
  log: ((level: EmbeddingPoolLogLevel, msg: string) => void) | undefined,
): { file: EmbeddingExitFile; id: string } | null {
  if (!existsSync(path)) return null;
  const text = readFileSync(path, 'utf8');
  const file = parseEmbeddingExit(JSON.parse(text), heads.model.dim);
  const stale = staleExit(file, heads, headsId);
  if (stale) {
    (log ?? ((level, msg) => console[level](msg)))('warn', `early exit off: ${stale}; run \`${TRAIN_EXIT_COMMAND}\` to calibrate them again`);
    return null;
  }
  return { file, id: sha12(text) };
}
