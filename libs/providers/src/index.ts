// The provider port: providers by name, their signals and how each folds them.
export { PROVIDER_REGISTRY } from './port/provider.port';
export type {
  Modality,
  ImageForScoring,
  ScoreRequest,
  ProviderScore,
  ModerationProvider,
  ProviderRegistry,
  CircuitState,
  ProviderDescription,
  KnownProvider,
} from './port/provider.port';
export { StaticProviderRegistry, foldByProvider, mergeSignals } from './port/provider-registry';
export { ProvidersModule } from './providers.module';

// External providers (external/README.md): what the check path catches, and who exists.
export { ProviderCallError } from './external/provider-call.error';
export type { ProviderCallReason } from './external/provider-call.error';
export { EXTERNAL_PROVIDERS, externalProvidersFrom } from './external/external-providers';
export type { ExternalProvidersConfig } from './external/external-providers';
export { OPENAI_PROVIDER } from './external/openai.signals';
export { AZURE_PROVIDER } from './external/azure.signals';
export { LLAMAGUARD_PROVIDER } from './external/llamaguard.signals';
export { GOOGLE_VISION_PROVIDER } from './external/google-vision.signals';

export { LocalProvider, LOCAL_PROVIDER, LOCAL_SIGNAL_FOLDING } from './local/local.provider';
export type { ImageClassifier, ImageFrameInput } from './local/local.provider';
export { LocalImageModel, LOCAL_IMAGE_INPUT_SIZE } from './local/local-image.model';
export { LocalTextRuntime, LocalTextModelKind, TextScore, TextScorer } from './local/local-text.runtime';
export { LocalEmbeddingScorer } from './local-embedding/local-embedding.scorer';
export { NsfwPool, NSFW_INPUT_SIZE } from './local-image/nsfw-pool';
export { loadNsfwjsOnTfjs } from './local-image/nsfwjs-tfjs';
export { SafetyPool, SAFETY_INPUT_SIZE } from './image-safety/image-safety-pool';
export type { SafetyScores } from './image-safety/image-safety-scores';
export { LOCAL_IMAGE_SIGNALS, LOCAL_IMAGE_SIGNAL_DESCRIPTIONS, LOCAL_IMAGE_SIGNAL_FOLDING, imageSignalsOf } from './local/local-image.signals';
export type { LocalImageSignal, LocalImageScores, NsfwClassScores } from './local/local-image.signals';

// Built-in offline `local` text provider: the classifier, its signals and how they fold.
export { LocalTextClassifier, LOCAL_TEXT_MODEL_FILE, LOCAL_TEXT_LEXICON_FILE } from './local-text/local-text.classifier';
export {
  LOCAL_TEXT_SIGNALS,
  LOCAL_TEXT_CATEGORIES,
  LOCAL_TEXT_SIGNAL_FOLDING,
  LOCAL_TEXT_SIGNAL_DESCRIPTIONS,
  SUPPORTED_LANGUAGES,
  isSupportedLanguage,
  foldLocalTextSignals,
} from './local-text/local-text.signals';
export type { LocalTextSignal, LocalTextCategory, SupportedLanguage } from './local-text/local-text.signals';

// Model tooling shared with scripts/train-text: the trainer must normalise, featurise and
// encode exactly as the runtime does.
export { LocalTextModelFormatError, encodeLocalTextModel, decodeLocalTextModel } from './local-text/local-text-model.format';
export type { LexiconFloor, LocalTextModel, LocalTextModelHeader, PlattCalibration } from './local-text/local-text-model.format';
export { TextFeaturizer, DEFAULT_FEATURIZER_CONFIG } from './local-text/text-featurizer';
export type { FeaturizerConfig } from './local-text/text-featurizer';
export { LexiconIndex } from './local-text/text-lexicon';
export type { LexiconFile } from './local-text/text-lexicon';
export { normalizeTokens, normalizeText, MAX_TEXT_CHARS } from './local-text/text-normalizer';
