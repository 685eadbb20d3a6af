import { Inject, Injectable, Optional } from '@nestjs/common';
import { Metrics } from '@cds/metrics';
import { DomainError } from '@cds/errors';
import { invalid } from '@cds/errors';
import { DecisionPart, ScoreMap } from '@cds/events';
import { evaluate, ParsedPolicy, PolicyEvaluation } from '@cds/policy';
import { ImageForScoring, mergeSignals, PROVIDER_REGISTRY, ProviderRegistry, SUPPORTED_LANGUAGES } from '@cds/providers';

/** What the providers said about one item, before any policy. */
export interface ScoredItem {
  signals: Record<string, ScoreMap>;
  cost: number;
}

/**
 * Scores content through the provider registry and evaluates policies over stored
 * signals (live checks, replays and batches alike). It knows no provider's signal names:
 * each provider's signals fold with that provider's own map.
 */
@Injectable()
export class ContentScorer {
  private readonly languages = new Set<string>(SUPPORTED_LANGUAGES);

  constructor(
    @Inject(PROVIDER_REGISTRY) private readonly providers: ProviderRegistry,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  assertLanguage(language: string): void {
    if (!this.languages.has(language)) {
      throw invalid('UNSUPPORTED_LANGUAGE', 'Unsupported language', `language must be one of ${[...this.languages].join(', ')} (got "${language}")`);
    }
  }

  async scoreText(text: string, language: string): Promise<ScoredItem> {
    const provider = this.providers.forModality('text');
    const { signals, cost } = await this.timed(provider.name, 'text', () => provider.score({ modality: 'text', text, language }));
    return { signals: { [provider.name]: signals }, cost };
  }

  /** The image's pixels, and the text read in it (scored by the text provider) when there
   * is some: the model and the OCR run side by side. */
  async scoreImage(image: ImageForScoring, ocrText: Promise<string | null>, language: string): Promise<ScoredItem & { ocrText: string | null }> {
    const provider = this.providers.forModality('image');
    const [pixels, [read, text]] = await Promise.all([
      this.timed(provider.name, 'image', () => provider.score({ modality: 'image', image, language })),
      ocrText.then(async (t) => [t, t ? await this.scoreText(t, language) : null] as const),
    ]);
    const signals: Record<string, ScoreMap> = { [provider.name]: pixels.signals };
    for (const [name, s] of Object.entries(text?.signals ?? {})) signals[name] = mergeSignals(signals[name] ?? {}, s);
    return { signals, cost: pixels.cost + (text?.cost ?? 0), ocrText: read };
  }

  private async timed<T>(provider: string, modality: string, call: () => Promise<T>): Promise<T> {
    const started = process.hrtime.bigint();
    try {
      return await call();
    } catch (err) {
      this.metrics?.providerErrors.inc({ provider, modality, code: err instanceof DomainError ? err.code : 'ERROR' });
      throw err;
    } finally {
      this.metrics?.providerDuration.observe({ provider, modality }, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  /** A policy over raw signals per provider. */
  decide(policy: ParsedPolicy, signals: Record<string, ScoreMap>): PolicyEvaluation {
    return evaluate(policy, this.providers.fold(signals), providerOf(signals));
  }

  /** Each part again under `policy`, and the whole decision over all of them. */
  decideParts(policy: ParsedPolicy, parts: readonly Pick<DecisionPart, 'signals'>[]): { overall: PolicyEvaluation; parts: PolicyEvaluation[] } {
    const each = parts.map((p) => this.decide(policy, p.signals));
    // One part (text, image): the whole is that part.
    if (each.length === 1) return { overall: each[0], parts: each };
    return { overall: this.decide(policy, mergeBy(parts.map((p) => p.signals))), parts: each };
  }

  /** Mock signals of a dry run fold like the default provider's. */
  foldingForDryRun() {
    return this.providers.defaultFolding();
  }
}

/** Signals per provider of several parts, merged by max. */
export function mergeBy(all: readonly Record<string, ScoreMap>[]): Record<string, ScoreMap> {
  const out: Record<string, ScoreMap> = {};
  for (const byProvider of all) {
    for (const [name, s] of Object.entries(byProvider)) out[name] = mergeSignals(out[name] ?? {}, s);
  }
  return out;
}

/** The `provider` of a decision: who scored, in name order. */
export function providerOf(signals: Record<string, ScoreMap>): string {
  return Object.keys(signals).sort().join(',');
}
