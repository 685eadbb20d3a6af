import type { ProviderPrices } from '@cds/config';
import { Modality } from '../port/provider.port';

/**
 * List prices in USD (see README.md), per call unless said otherwise. `azure.text` is per
 * text record: 1000 characters, a longer text counting one per started thousand.
 * Overridden by PROVIDER_PRICES (`<provider>` or `<provider>.<modality>`).
 */
export const DEFAULT_PROVIDER_PRICES: Readonly<ProviderPrices> = Object.freeze({
  local: 0,
  openai: 0,
  'azure.text': 0.00075,
  'azure.image': 0.00075,
  llamaguard: 0,
  'google-vision': 0.0015,
});

/** The unit price of `provider` for `modality`: an override for the modality, then for the
 * provider, then the default for the modality, then for the provider; 0 if none. */
export function unitPrice(provider: string, modality: Modality, overrides: ProviderPrices = {}): number {
  const keys = [`${provider}.${modality}`, provider];
  for (const table of [overrides, DEFAULT_PROVIDER_PRICES]) {
    for (const key of keys) {
      if (Object.prototype.hasOwnProperty.call(table, key)) return table[key];
    }
  }
  return 0;
}
