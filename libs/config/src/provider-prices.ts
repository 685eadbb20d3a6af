/** Providers whose price PROVIDER_PRICES may set. */
export const PRICED_PROVIDERS = ['local', 'openai', 'azure', 'llamaguard', 'google-vision'] as const;

/** `<provider>` (both modalities) or `<provider>.<modality>` -> USD per unit (see the providers' README). */
export type ProviderPrices = Record<string, number>;

const KEY = /^([a-z][a-z0-9-]*)(?:\.(text|image))?$/;

/**
 * Parses PROVIDER_PRICES: `openai=0,azure=0.001,google-vision.image=0.0015` or the same as
 * a JSON object. Throws an Error naming the bad entry.
 */
export function parseProviderPrices(value: string): ProviderPrices {
  const trimmed = value.trim();
  if (trimmed === '') return {};
  const entries: [string, unknown][] = trimmed.startsWith('{') ? jsonEntries(trimmed) : listEntries(trimmed);
  const out: ProviderPrices = {};
  for (const [key, price] of entries) {
    const m = KEY.exec(key);
    if (!m || !(PRICED_PROVIDERS as readonly string[]).includes(m[1])) {
      throw new Error(`unknown provider "${key}" (one of ${PRICED_PROVIDERS.join(', ')}, optionally with .text or .image)`);
    }
    if (typeof price !== 'number' || !Number.isFinite(price) || price < 0 || price > 100) {
      throw new Error(`price of "${key}" must be a number of USD between 0 and 100 (got ${JSON.stringify(price)})`);
    }
    Object.defineProperty(out, key, { value: price, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function jsonEntries(text: string): [string, unknown][] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('must be a JSON object of provider -> price');
  return Object.entries(parsed);
}

function listEntries(text: string): [string, unknown][] {
  return text.split(',').map((part) => {
    const [key, raw, ...rest] = part.split('=').map((s) => s.trim());
    if (raw === undefined || rest.length > 0 || raw === '') throw new Error(`"${part.trim()}" is not provider=price`);
    return [key, /^\d+(\.\d+)?([eE]-?\d+)?$/.test(raw) ? Number(raw) : raw];
  });
}
