import { externalProvidersFrom, ExternalProvidersConfig } from './external-providers';

/** AppConfig's defaults for these settings (the config lib pulls in Nest, which jest cannot load here). */
const DEFAULTS: ExternalProvidersConfig = {
  PROVIDER_TIMEOUT_MS: 5000,
  PROVIDER_RETRY_BUDGET_MS: 10_000,
  PROVIDER_MAX_RETRIES: 2,
  PROVIDER_CIRCUIT_FAILURES: 5,
  PROVIDER_CIRCUIT_COOLDOWN_MS: 30_000,
  PROVIDER_PRICES: {},
  OPENAI_BASE_URL: 'https://api.openai.com/v1',
  OPENAI_MODERATION_MODEL: 'omni-moderation-latest',
  GOOGLE_VISION_BASE_URL: 'https://vision.googleapis.com',
};

describe('externalProvidersFrom', () => {
  it('registers nothing by default', () => {
    expect(externalProvidersFrom(DEFAULTS)).toEqual([]);
  });

  it('registers each provider whose configuration is set, with its modalities and a closed circuit', () => {
    const providers = externalProvidersFrom({
      ...DEFAULTS,
      OPENAI_API_KEY: 'sk-x',
      AZURE_CONTENT_SAFETY_ENDPOINT: 'https://cs.cognitiveservices.azure.com',
      AZURE_CONTENT_SAFETY_KEY: 'k',
      LLAMAGUARD_BASE_URL: 'http://127.0.0.1:8000/v1',
      LLAMAGUARD_MODEL: 'meta-llama/Llama-Guard-3-8B',
      GOOGLE_VISION_API_KEY: 'AIza',
    });
    expect(providers.map((p) => [p.name, [...p.modalities], p.circuitState?.()])).toEqual([
      ['openai', ['text', 'image'], 'closed'],
      ['azure', ['text', 'image'], 'closed'],
      ['llamaguard', ['text'], 'closed'],
      ['google-vision', ['image'], 'closed'],
    ]);
  });

  it('needs both halves of azure and llamaguard', () => {
    expect(externalProvidersFrom({ ...DEFAULTS, AZURE_CONTENT_SAFETY_KEY: 'k', LLAMAGUARD_MODEL: 'm' })).toEqual([]);
  });
});
