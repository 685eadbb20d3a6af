import { invalid } from '@cds/errors';
import { ScoreMap } from '@cds/events';
import { foldSignals, getOwn, setOwn, SignalFolding } from '@cds/policy';
import { KnownProvider, Modality, ModerationProvider, ProviderDescription, ProviderRegistry } from './provider.port';

/** Folds each provider's raw signals with that provider's map and merges by max. Signals
 * of a provider that is not configured (any more) fold with the default map, so replay of
 * an old decision never needs the provider itself. */
export function foldByProvider(signalsByProvider: Record<string, ScoreMap>, foldingOf: (provider: string) => SignalFolding): ScoreMap {
  const providers = Object.keys(signalsByProvider);
  // One provider (every local check): its folded scores as they are.
  if (providers.length === 1) return foldSignals(signalsByProvider[providers[0]] ?? {}, foldingOf(providers[0]));
  return mergeSignals(...providers.map((p) => foldSignals(signalsByProvider[p] ?? {}, foldingOf(p))));
}

/** Signal maps merged by max: the signals of several frames, or of an image and its text. */
export function mergeSignals(...maps: ScoreMap[]): ScoreMap {
  const out: ScoreMap = {};
  for (const m of maps) {
    for (const [name, v] of Object.entries(m)) {
      if (typeof v !== 'number' || Number.isNaN(v)) continue;
      const prev = getOwn(out, name);
      if (prev === undefined || v > prev) setOwn(out, name, v);
    }
  }
  return out;
}

/** The providers this process has, by name, with the default per modality; `known` are
 * providers the build has but this process does not (not configured), for describe(). */
export class StaticProviderRegistry implements ProviderRegistry {
  private readonly byName = new Map<string, ModerationProvider>();

  constructor(
    providers: readonly ModerationProvider[],
    private readonly defaults: Record<Modality, string>,
    private readonly known: readonly KnownProvider[] = [],
  ) {
    for (const p of providers) this.byName.set(p.name, p);
    for (const [modality, name] of Object.entries(defaults)) {
      const p = this.byName.get(name);
      if (!p || !p.modalities.includes(modality as Modality)) throw new Error(`default ${modality} provider "${name}" is not configured for ${modality}`);
    }
  }

  forModality(modality: Modality): ModerationProvider {
    return this.get(this.defaults[modality]);
  }

  get(name: string): ModerationProvider {
    const p = this.byName.get(name);
    if (!p)
      throw invalid('PROVIDER_NOT_CONFIGURED', 'Provider not configured', `provider "${name}" is not configured (configured: ${this.names().join(', ')})`);
    return p;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  fold(signalsByProvider: Record<string, ScoreMap>): ScoreMap {
    return foldByProvider(signalsByProvider, (name) => (this.byName.get(name) ?? this.forModality('text')).folding);
  }

  defaultFolding(): SignalFolding {
    return this.forModality('text').folding;
  }

  describe(): ProviderDescription[] {
    const configured = [...this.byName.values()].map(
      (p) =>
        ({
          name: p.name,
          configured: true,
          modalities: [...p.modalities],
          circuit: p.circuitState?.() ?? 'closed',
        }) satisfies ProviderDescription,
    );
    const others = this.known
      .filter((k) => !this.byName.has(k.name))
      .map((k) => ({ name: k.name, configured: false, modalities: [...k.modalities], circuit: 'closed' }) satisfies ProviderDescription);
    return [...configured, ...others];
  }
}
