import type { AppConfig } from '@cds/config';
import { KnownProvider, Modality, ModerationProvider } from '../port/provider.port';
import { AzureContentSafetyProvider } from './azure.provider';
import { AZURE_PROVIDER } from './azure.signals';
import { CallSettings, ExternalCall } from './external-call';
import { GoogleVisionProvider } from './google-vision.provider';
import { classifyGoogleError, GOOGLE_VISION_PROVIDER } from './google-vision.signals';
import { LlamaGuardProvider } from './llamaguard.provider';
import { LLAMAGUARD_PROVIDER } from './llamaguard.signals';
import { OpenAiProvider } from './openai.provider';
import { OPENAI_PROVIDER } from './openai.signals';
import { unitPrice } from './provider-prices';

/** The external providers this build has, configured or not. */
export const EXTERNAL_PROVIDERS: readonly KnownProvider[] = Object.freeze([
  { name: OPENAI_PROVIDER, modalities: ['text', 'image'] },
  { name: AZURE_PROVIDER, modalities: ['text', 'image'] },
  { name: LLAMAGUARD_PROVIDER, modalities: ['text'] },
  { name: GOOGLE_VISION_PROVIDER, modalities: ['image'] },
] satisfies KnownProvider[]);

export type ExternalProvidersConfig = Pick<
  AppConfig,
  | 'PROVIDER_TIMEOUT_MS'
  | 'PROVIDER_RETRY_BUDGET_MS'
  | 'PROVIDER_MAX_RETRIES'
  | 'PROVIDER_CIRCUIT_FAILURES'
  | 'PROVIDER_CIRCUIT_COOLDOWN_MS'
  | 'PROVIDER_PRICES'
  | 'OPENAI_API_KEY'
  | 'OPENAI_BASE_URL'
  | 'OPENAI_MODERATION_MODEL'
  | 'OPENAI_TIMEOUT_MS'
  | 'AZURE_CONTENT_SAFETY_ENDPOINT'
  | 'AZURE_CONTENT_SAFETY_KEY'
  | 'AZURE_CONTENT_SAFETY_BLOCKLISTS'
  | 'AZURE_CONTENT_SAFETY_TIMEOUT_MS'
  | 'LLAMAGUARD_BASE_URL'
  | 'LLAMAGUARD_MODEL'
  | 'LLAMAGUARD_API_KEY'
  | 'LLAMAGUARD_PROMPT_GUARD_MODEL'
  | 'LLAMAGUARD_TIMEOUT_MS'
  | 'GOOGLE_VISION_API_KEY'
  | 'GOOGLE_VISION_BASE_URL'
  | 'GOOGLE_VISION_TIMEOUT_MS'
>;

/**
 * The external providers whose configuration is set, each with its own circuit and
 * limits: openai with OPENAI_API_KEY, azure with its endpoint and key, llamaguard with its
 * base URL and model, google-vision with GOOGLE_VISION_API_KEY.
 */
export function externalProvidersFrom(config: ExternalProvidersConfig, tuning: Partial<CallSettings> = {}): ModerationProvider[] {
  const price = (provider: string, modality: Modality) => unitPrice(provider, modality, config.PROVIDER_PRICES);
  const settings = (timeoutMs: number | undefined): CallSettings => ({
    timeoutMs: timeoutMs ?? config.PROVIDER_TIMEOUT_MS,
    retryBudgetMs: config.PROVIDER_RETRY_BUDGET_MS,
    maxRetries: config.PROVIDER_MAX_RETRIES,
    circuitFailures: config.PROVIDER_CIRCUIT_FAILURES,
    circuitCooldownMs: config.PROVIDER_CIRCUIT_COOLDOWN_MS,
    ...tuning,
  });
  const providers: ModerationProvider[] = [];

  if (config.OPENAI_API_KEY) {
    const apiKey = config.OPENAI_API_KEY;
    providers.push(
      new OpenAiProvider(
        {
          apiKey,
          baseUrl: config.OPENAI_BASE_URL,
          model: config.OPENAI_MODERATION_MODEL,
          price: { text: price(OPENAI_PROVIDER, 'text'), image: price(OPENAI_PROVIDER, 'image') },
        },
        new ExternalCall(OPENAI_PROVIDER, settings(config.OPENAI_TIMEOUT_MS), [apiKey]),
      ),
    );
  }
  if (config.AZURE_CONTENT_SAFETY_ENDPOINT && config.AZURE_CONTENT_SAFETY_KEY) {
    const key = config.AZURE_CONTENT_SAFETY_KEY;
    const blocklists = (config.AZURE_CONTENT_SAFETY_BLOCKLISTS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
    providers.push(
      new AzureContentSafetyProvider(
        {
          endpoint: config.AZURE_CONTENT_SAFETY_ENDPOINT,
          key,
          blocklists,
          price: { text: price(AZURE_PROVIDER, 'text'), image: price(AZURE_PROVIDER, 'image') },
        },
        new ExternalCall(AZURE_PROVIDER, settings(config.AZURE_CONTENT_SAFETY_TIMEOUT_MS), [key]),
      ),
    );
  }
  if (config.LLAMAGUARD_BASE_URL && config.LLAMAGUARD_MODEL) {
    const apiKey = config.LLAMAGUARD_API_KEY;
    providers.push(
      new LlamaGuardProvider(
        {
          baseUrl: config.LLAMAGUARD_BASE_URL,
          model: config.LLAMAGUARD_MODEL,
          apiKey,
          price: price(LLAMAGUARD_PROVIDER, 'text'),
          promptGuardModel: config.LLAMAGUARD_PROMPT_GUARD_MODEL,
        },
        new ExternalCall(LLAMAGUARD_PROVIDER, settings(config.LLAMAGUARD_TIMEOUT_MS), apiKey ? [apiKey] : []),
      ),
    );
  }
  if (config.GOOGLE_VISION_API_KEY) {
    const apiKey = config.GOOGLE_VISION_API_KEY;
    providers.push(
      new GoogleVisionProvider(
        { apiKey, baseUrl: config.GOOGLE_VISION_BASE_URL, price: price(GOOGLE_VISION_PROVIDER, 'image') },
        new ExternalCall(GOOGLE_VISION_PROVIDER, settings(config.GOOGLE_VISION_TIMEOUT_MS), [apiKey, encodeURIComponent(apiKey)], classifyGoogleError),
      ),
    );
  }
  return providers;
}
