import { loadConfig } from './app-config';
import { parseProviderPrices } from './provider-prices';

describe('external provider settings', () => {
  it('has defaults that register no external provider', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      PROVIDER_TIMEOUT_MS: 5000,
      PROVIDER_RETRY_BUDGET_MS: 10_000,
      PROVIDER_MAX_RETRIES: 2,
      PROVIDER_CIRCUIT_FAILURES: 5,
      PROVIDER_CIRCUIT_COOLDOWN_MS: 30_000,
      PROVIDER_PRICES: {},
      OPENAI_BASE_URL: 'https://api.openai.com/v1',
      OPENAI_MODERATION_MODEL: 'omni-moderation-latest',
      GOOGLE_VISION_BASE_URL: 'https://vision.googleapis.com',
    });
    expect(c.OPENAI_API_KEY).toBeUndefined();
    expect(c.AZURE_CONTENT_SAFETY_ENDPOINT).toBeUndefined();
    expect(c.LLAMAGUARD_BASE_URL).toBeUndefined();
    expect(c.GOOGLE_VISION_API_KEY).toBeUndefined();
  });

  it('reads every provider variable, an empty one counting as unset', () => {
    const c = loadConfig({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_TIMEOUT_MS: '2500',
      AZURE_CONTENT_SAFETY_ENDPOINT: 'https://cs.cognitiveservices.azure.com',
      AZURE_CONTENT_SAFETY_KEY: 'k',
      AZURE_CONTENT_SAFETY_BLOCKLISTS: 'slurs, brand.names',
      LLAMAGUARD_BASE_URL: 'http://gpu:8000/v1',
      LLAMAGUARD_MODEL: 'meta-llama/Llama-Guard-3-8B',
      LLAMAGUARD_API_KEY: '',
      GOOGLE_VISION_API_KEY: 'AIza',
      PROVIDER_PRICES: 'azure=0.001,google-vision.image=0.002',
    });
    expect(c).toMatchObject({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_TIMEOUT_MS: 2500,
      AZURE_CONTENT_SAFETY_BLOCKLISTS: 'slurs, brand.names',
      LLAMAGUARD_MODEL: 'meta-llama/Llama-Guard-3-8B',
    });
    expect(c.LLAMAGUARD_API_KEY).toBeUndefined();
    expect(c.PROVIDER_PRICES).toEqual({ azure: 0.001, 'google-vision.image': 0.002 });
    expect(loadConfig({ PROVIDER_PRICES: '{"openai": 0.0001}' }).PROVIDER_PRICES).toEqual({ openai: 0.0001 });
  });

  it.each([
    [{ AZURE_CONTENT_SAFETY_ENDPOINT: 'https://cs.example.com' }, /AZURE_CONTENT_SAFETY_KEY.*required with AZURE_CONTENT_SAFETY_ENDPOINT/],
    [{ AZURE_CONTENT_SAFETY_KEY: 'k' }, /AZURE_CONTENT_SAFETY_ENDPOINT.*required with AZURE_CONTENT_SAFETY_KEY/],
    [{ LLAMAGUARD_BASE_URL: 'http://gpu:8000/v1' }, /LLAMAGUARD_MODEL is required/],
    [{ LLAMAGUARD_MODEL: 'm' }, /LLAMAGUARD_BASE_URL.*required with LLAMAGUARD_MODEL/],
    [{ OPENAI_BASE_URL: 'ftp://x' }, /OPENAI_BASE_URL must be an http\(s\) URL/],
    [{ PROVIDER_TIMEOUT_MS: '10' }, /PROVIDER_TIMEOUT_MS/],
    [{ PROVIDER_PRICES: 'opneai=0' }, /PROVIDER_PRICES.*unknown provider "opneai"/],
    [{ AZURE_CONTENT_SAFETY_BLOCKLISTS: 'a b' }, /AZURE_CONTENT_SAFETY_BLOCKLISTS must be/],
  ])('stops on %j naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('parseProviderPrices', () => {
  it('reads a list or a JSON object', () => {
    expect(parseProviderPrices('openai=0, azure=0.00075,google-vision.image=1.5e-3')).toEqual({ openai: 0, azure: 0.00075, 'google-vision.image': 0.0015 });
    expect(parseProviderPrices('{"azure.text": 0.001}')).toEqual({ 'azure.text': 0.001 });
    expect(parseProviderPrices('  ')).toEqual({});
  });

  it.each(['openai', 'openai=-1', 'openai=abc', 'azure.video=1', '{"azure": "1"}', '[1]', '{', 'x=1'])('refuses %s', (value) => {
    expect(() => parseProviderPrices(value)).toThrow();
  });
});
