import { DynamicModule, Global, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Metrics } from '@cds/metrics';
import { AppConfig } from '@cds/config';
import { LocalTextRuntime } from './local/local-text.runtime';
import { LocalImageModel } from './local/local-image.model';
import { LocalProvider, LOCAL_PROVIDER } from './local/local.provider';
import { Modality, ModerationProvider, PROVIDER_REGISTRY } from './port/provider.port';
import { StaticProviderRegistry } from './port/provider-registry';
import { EXTERNAL_PROVIDERS, externalProvidersFrom } from './external/external-providers';

/** The providers of this process behind PROVIDER_REGISTRY: the built-in `local` one, for
 * text and images and the default of both, and each external provider whose
 * configuration is set (a policy or the check path names them). */
@Global()
@Module({})
export class ProvidersModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly images: LocalImageModel,
    private readonly text: LocalTextRuntime,
    private readonly config: AppConfig,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  static forRoot(): DynamicModule {
    return {
      module: ProvidersModule,
      providers: [
        {
          provide: LocalImageModel,
          inject: [AppConfig],
          useFactory: (config: AppConfig) => {
            const logger = new Logger('LocalImageModel');
            return new LocalImageModel({ workers: config.IMAGE_WORKERS, log: (level, message) => logger[level](message) });
          },
        },
        {
          provide: LocalTextRuntime,
          inject: [AppConfig],
          useFactory: (config: AppConfig) => {
            const logger = new Logger('LocalTextModel');
            return new LocalTextRuntime({
              kind: config.LOCAL_TEXT_MODEL,
              workers: config.TEXT_WORKERS,
              cacheEntries: config.LOCAL_TEXT_CACHE_ENTRIES,
              queueLimit: config.TEXT_QUEUE_LIMIT,
              earlyExit: config.LOCAL_TEXT_EARLY_EXIT === 'on',
              log: (level, message) => logger[level](message),
            });
          },
        },
        {
          provide: PROVIDER_REGISTRY,
          inject: [LocalTextRuntime, LocalImageModel, AppConfig],
          useFactory: (text: LocalTextRuntime, images: LocalImageModel, config: AppConfig) => {
            const providers = [new LocalProvider(text, () => images), ...externalProvidersFrom(config)];
            return new StaticProviderRegistry(providers, defaultsFor(providers, config.DEFAULT_PROVIDER), EXTERNAL_PROVIDERS);
          },
        },
      ],
      exports: [PROVIDER_REGISTRY, LocalImageModel, LocalTextRuntime],
    };
  }

  onApplicationBootstrap(): void {
    this.metrics?.gauge('cds_image_frames_queued', 'Image frames waiting for a model thread', [], (set) => set({}, this.images.queued()));
    this.metrics?.gauge('cds_text_queued', 'Texts waiting for an embedding thread', [], (set) => set({}, this.text.queued()));
    this.metrics?.gauge(
      'cds_text_answered_by',
      'Texts the embedding text model answered since the start, by path: cache, ngram-cleared, and per chunk layer-N (the encoder layer it left at)',
      ['path'],
      (set) => {
        for (const [path, n] of Object.entries(this.text.answeredBy())) set({ path }, n);
      },
    );
    // The projector scores nothing. A missing text model stops the process here, with the
    // command that installs it.
    if (this.config.ROLE === 'projector') return;
    this.text.start();
    if (this.config.IMAGE_MODEL_PRELOAD) this.images.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.images.close(), this.text.close()]);
  }
}

/** DEFAULT_PROVIDER scores the modalities it can; `local` the others. A default that is not
 * configured stops the process at start with the reason. */
function defaultsFor(providers: readonly ModerationProvider[], name: string): Record<Modality, string> {
  const chosen = providers.find((p) => p.name === name);
  if (!chosen) {
    throw new Error(`DEFAULT_PROVIDER=${name} is not configured (configured: ${providers.map((p) => p.name).join(', ')}); set its key, or use local`);
  }
  const pick = (m: Modality) => (chosen.modalities.includes(m) ? name : LOCAL_PROVIDER);
  return { text: pick('text'), image: pick('image') };
}
