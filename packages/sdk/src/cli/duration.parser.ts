import { UsageError } from './usage.error';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `500ms`, `2s`, `5m`, `12h`, `7d`, `2w`; a bare number is seconds. Positive only. */
export function parseDuration(text: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)?$/.exec(text.trim());
  const ms = m ? Number(m[1]) * UNIT_MS[m[2] ?? 's'] : NaN;
  if (!Number.isFinite(ms) || ms <= 0) throw new UsageError(`${flag} must be a duration such as 500ms, 2s, 5m, 12h, 7d (got "${text}")`);
  return Math.round(ms);
}

export function parsePositiveInt(text: string, flag: string, min = 1): number {
  if (!/^\d{1,9}$/.test(text) || Number(text) < min) throw new UsageError(`${flag} must be an integer of at least ${min} (got "${text}")`);
  return Number(text);
}
