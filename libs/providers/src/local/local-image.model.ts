import { DomainError } from '@cds/errors';
import { NsfwPool, NSFW_INPUT_SIZE } from '../local-image/nsfw-pool';
import { SafetyPool, SAFETY_INPUT_SIZE } from '../image-safety/image-safety-pool';
import { LocalImageScores } from './local-image.signals';
import { ImageClassifier, ImageFrameInput } from './local.provider';

/** The side of the square frames both image models take. */
export const LOCAL_IMAGE_INPUT_SIZE = NSFW_INPUT_SIZE;
if (SAFETY_INPUT_SIZE !== NSFW_INPUT_SIZE) throw new Error('the two image models take frames of different sizes');

export interface LocalImageModelOptions {
  workers: number;
  log: (level: 'log' | 'warn' | 'error', message: string) => void;
  /** where `npm run models:fetch` installed the image safety model (default models/image-safety) */
  safetyModelDir?: string;
}

type PoolState = 'loading' | 'ready' | 'failed';

/**
 * The two image models' worker pools (nsfwjs, and the image safety model on
 * onnxruntime), started once per process: at boot (IMAGE_MODEL_PRELOAD) or at the first
 * image check. Every frame goes to both at once. The safety model not installed is no
 * crash: it is logged at start (IMAGE_MODEL_MISSING, naming `npm run models:fetch`), and
 * image checks answer 503 with that code until it is; scoring the pixels for nudity
 * alone would pass graphic violence without saying so.
 */
export class LocalImageModel implements ImageClassifier {
  readonly inputSize = LOCAL_IMAGE_INPUT_SIZE;
  private pools: { nsfw: NsfwPool; safety: SafetyPool | null; missing: DomainError | null } | null = null;

  constructor(private readonly options: LocalImageModelOptions) {}

  start(): void {
    if (this.pools) return;
    const { workers, log } = this.options;
    log('log', `loading the image models in ${workers} worker thread(s) each`);
    const nsfw = NsfwPool.start({ workers, log });
    let safety: SafetyPool | null = null;
    let missing: DomainError | null = null;
    try {
      safety = SafetyPool.start({ workers, log, modelDir: this.options.safetyModelDir });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      missing = err;
      log('error', `${err.code}: ${err.message} (${err.details}); image checks will answer 503 ${err.code} until it is installed`);
    }
    const pools = { nsfw, safety, missing };
    this.pools = pools;
    Promise.all([nsfw.ready(), safety?.ready()]).then(
      () => log('log', 'image models ready (nsfwjs and the image safety model, both on onnxruntime)'),
      (err: Error) => {
        // Closed while it was loading (a process stopped soon after its start): no failure.
        if (this.pools === pools) log('error', `image models unavailable: ${err.message}`);
      },
    );
  }

  /** Frames waiting for a model thread (both models' queues). */
  queued(): number {
    return this.pools ? this.pools.nsfw.queued() + (this.pools.safety?.queued() ?? 0) : 0;
  }

  /** `idle` before the first start; `failed` when either model failed or the safety model is missing. */
  get state(): 'idle' | PoolState {
    if (!this.pools) return 'idle';
    const { nsfw, safety } = this.pools;
    if (!safety || nsfw.state === 'failed' || safety.state === 'failed') return 'failed';
    return nsfw.state === 'ready' && safety.state === 'ready' ? 'ready' : 'loading';
  }

  /** Both models' scores of one frame. The pools answer their failures as 503s themselves:
   * IMAGE_MODEL_UNAVAILABLE, IMAGE_QUEUE_FULL, IMAGE_WORKER_CRASHED; and IMAGE_MODEL_MISSING. */
  async classify(frame: ImageFrameInput): Promise<LocalImageScores> {
    this.start();
    const { nsfw, safety, missing } = this.pools!;
    if (!safety) throw missing!;
    const [n, s] = await Promise.all([nsfw.classify(frame.rgb), safety.classify(frame.padded)]);
    return { nsfw: n, safety: s };
  }

  async close(): Promise<void> {
    const pools = this.pools;
    this.pools = null;
    await Promise.all([pools?.nsfw.close(), pools?.safety?.close()]);
  }
}
