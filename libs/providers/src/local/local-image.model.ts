import { DomainError } from '@cds/errors';
import { NsfwPool, NSFW_INPUT_SIZE } from '../local-image/nsfw-pool';
import { NsfwClassScores } from './local-image.signals';
import { ImageClassifier } from './local.provider';

export const LOCAL_IMAGE_INPUT_SIZE = NSFW_INPUT_SIZE;

export interface LocalImageModelOptions {
  workers: number;
  log: (level: 'log' | 'warn' | 'error', message: string) => void;
}

/**
 * The image model's worker pool, started once per process: at boot (IMAGE_MODEL_PRELOAD)
 * or at the first image check. Its failures become answers a client can act on: 503
 * IMAGE_MODEL_UNAVAILABLE when the model could not load (or the wasm SIMD backend is
 * missing), 503 IMAGE_QUEUE_FULL when more images wait than the pool takes.
 */
export class LocalImageModel implements ImageClassifier {
  readonly inputSize = NSFW_INPUT_SIZE;
  private pool: NsfwPool | null = null;

  constructor(private readonly options: LocalImageModelOptions) {}

  start(): NsfwPool {
    if (!this.pool) {
      this.options.log('log', `loading the image model in ${this.options.workers} worker thread(s)`);
      this.pool = NsfwPool.start({ workers: this.options.workers, log: this.options.log });
      this.pool.ready().then(
        () => this.options.log('log', 'image model ready (tfjs wasm backend, SIMD)'),
        (err: Error) => this.options.log('error', `image model unavailable: ${err.message}`),
      );
    }
    return this.pool;
  }

  get state(): 'idle' | NsfwPool['state'] {
    return this.pool ? this.pool.state : 'idle';
  }

  async classify(rgb: Uint8Array): Promise<NsfwClassScores> {
    const pool = this.start();
    try {
      return await pool.classify(rgb);
    } catch (err) {
      if ((err as { code?: string }).code === 'IMAGE_QUEUE_FULL') {
        throw new DomainError('unavailable', 'IMAGE_QUEUE_FULL', 'Too many images are waiting to be scored', 'retry with backoff');
      }
      if (pool.state === 'failed') {
        throw new DomainError('unavailable', 'IMAGE_MODEL_UNAVAILABLE', 'The image model is unavailable', (err as Error).message);
      }
      throw err;
    }
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.close();
  }
}
