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
 * or at the first image check.
 */
export class LocalImageModel implements ImageClassifier {
  readonly inputSize = NSFW_INPUT_SIZE;
  private pool: NsfwPool | null = null;

  constructor(private readonly options: LocalImageModelOptions) {}

  start(): NsfwPool {
    if (!this.pool) {
      this.options.log('log', `loading the image model in ${this.options.workers} worker thread(s)`);
      const pool = NsfwPool.start({ workers: this.options.workers, log: this.options.log });
      this.pool = pool;
      pool.ready().then(
        () => this.options.log('log', 'image model ready (tfjs wasm backend, SIMD)'),
        (err: Error) => {
          // Closed while it was loading (a process stopped soon after its start): no failure.
          if (this.pool === pool) this.options.log('error', `image model unavailable: ${err.message}`);
        },
      );
    }
    return this.pool;
  }

  /** Frames waiting for a model thread. */
  queued(): number {
    return this.pool ? this.pool.stats().queued : 0;
  }

  get state(): 'idle' | NsfwPool['state'] {
    return this.pool ? this.pool.state : 'idle';
  }

  /** The pool answers its failures as 503s itself: IMAGE_MODEL_UNAVAILABLE, IMAGE_QUEUE_FULL,
   * IMAGE_WORKER_CRASHED. */
  classify(rgb: Uint8Array): Promise<NsfwClassScores> {
    return this.start().classify(rgb);
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.close();
  }
}
