import { Inject, Injectable, Optional } from '@nestjs/common';
import { AppConfig } from '@cds/config';
import { Metrics } from '@cds/metrics';
import { DomainError, invalid } from '@cds/errors';
import { DecisionPart, ProviderAttempt, ScoreMap } from '@cds/events';
import { evaluate, getOwn, ParsedPolicy, PolicyEvaluation, PROMPT_ATTACK_CATEGORIES, setOwn } from '@cds/policy';
import {
  ImageForScoring,
  LOCAL_PROVIDER,
  mergeSignals,
  Modality,
  PROVIDER_REGISTRY,
  ProviderCallError,
  ProviderRegistry,
  ScoreRequest,
  SUPPORTED_LANGUAGES,
} from '@cds/providers';
import { tracing } from '@cds/tracing';
import { ProviderCache, providerCacheKey } from './provider-cache';
import { providerChains } from './provider-routing';

/** What the providers said about one item, before any policy. */
export interface ScoredItem {
  signals: Record<string, ScoreMap>;
  cost: number;
  /** Who scored each category of the policy (absent when scored without one). */
  routes?: Record<string, string[]>;
  attempts?: ProviderAttempt[];
}

type Outcome = { ok: true; signals: ScoreMap; cost: number } | { ok: false; error: ProviderCallError };

/** Who scores each category, in the order to try them; `head` when every chain starts
 * with the same provider. */
interface Routing {
  chains: Map<string, string[]>;
  head: string | null;
}

/**
 * Scores content through the provider registry and evaluates policies over stored
 * signals (live checks, replays and batches alike). It knows no provider's signal names:
 * each provider's signals fold with that provider's own map. A policy routes its
 * categories to providers (provider-routing.ts): each provider needed is called once,
 * the first ones concurrently, a failed one's categories go to the next provider of
 * their chain, and a category no provider could score fails the check (503
 * PROVIDER_UNAVAILABLE), never a silent allow.
 */
@Injectable()
export class ContentScorer {
  private readonly languages = new Set<string>(SUPPORTED_LANGUAGES);
  private readonly cache: ProviderCache;
  private readonly routings = new WeakMap<ParsedPolicy, Map<Modality, Routing>>();
  private unpoliced: Map<Modality, Routing> | undefined;

  constructor(
    @Inject(PROVIDER_REGISTRY) private readonly providers: ProviderRegistry,
    @Optional() private readonly metrics?: Metrics,
    @Optional() config?: AppConfig,
  ) {
    this.cache = new ProviderCache((config?.PROVIDER_CACHE_TTL ?? 0) * 1000, config?.PROVIDER_CACHE_MAX_ENTRIES ?? 0);
  }

  assertLanguage(language: string): void {
    if (!this.languages.has(language)) {
      throw invalid('UNSUPPORTED_LANGUAGE', 'Unsupported language', `language must be one of ${[...this.languages].join(', ')} (got "${language}")`);
    }
  }

  scoreText(text: string, language: string, policy?: ParsedPolicy): Promise<ScoredItem> {
    const injection = policy !== undefined && PROMPT_ATTACK_CATEGORIES.some((c) => getOwn(policy.categories, c) !== undefined);
    return this.route(injection ? { modality: 'text', text, language, injection } : { modality: 'text', text, language }, policy);
  }

  /** The image's pixels, and the text read in it (scored as text) when there is some: the
   * model and the OCR run side by side. */
  async scoreImage(
    image: ImageForScoring,
    ocrText: Promise<string | null>,
    language: string,
    policy?: ParsedPolicy,
  ): Promise<ScoredItem & { ocrText: string | null }> {
    const [pixels, [read, text]] = await Promise.all([
      this.route({ modality: 'image', image, language }, policy),
      ocrText.then(async (t) => [t, t ? await this.scoreText(t, language, policy) : null] as const),
    ]);
    if (!text) return { ...pixels, ocrText: read };
    const signals = mergeBy([pixels.signals, text.signals]);
    const routes = pixels.routes && text.routes ? mergeRoutes(pixels.routes, text.routes) : undefined;
    return {
      signals,
      cost: pixels.cost + text.cost,
      ...(routes ? { routes } : {}),
      attempts: [...(pixels.attempts ?? []), ...(text.attempts ?? [])],
      ocrText: read,
    };
  }

  /** Each category to the first provider of its chain that answers; each provider called once. */
  private async route(request: ScoreRequest, policy: ParsedPolicy | undefined): Promise<ScoredItem> {
    const { chains, head } = this.routing(policy, request.modality);
    const calls = new Map<string, Promise<Outcome>>();
    const attempts: ProviderAttempt[] = [];
    const call = (name: string) => {
      let pending = calls.get(name);
      if (!pending) calls.set(name, (pending = this.callProvider(name, request, attempts)));
      return pending;
    };
    const routes: Record<string, string[]> = {};
    // Every chain headed by one provider (a local check) and it answered: each category
    // to it. Else the walk down the chains, each from its head at once, reusing the call.
    if (head !== null && (await call(head)).ok) {
      for (const category of chains.keys()) setOwn(routes, category, [head]);
    } else {
      const unscored: string[] = [];
      await Promise.all(
        [...chains].map(async ([category, chain]) => {
          for (const name of chain) {
            if ((await call(name)).ok) return void setOwn(routes, category, [name]);
          }
          unscored.push(category);
        }),
      );
      if (unscored.length > 0) throw unavailable(unscored, chains, attempts);
    }
    const signals: Record<string, ScoreMap> = {};
    let cost = 0;
    for (const [name, pending] of calls) {
      const o = await pending;
      if (!o.ok) continue;
      signals[name] = o.signals;
      cost += o.cost;
    }
    return { signals, cost, ...(policy ? { routes } : {}), attempts };
  }

  /** The chains of a policy for a modality, made once per parsed policy (the registry does
   * not change at run time); read, never changed, by their users. */
  private routing(policy: ParsedPolicy | undefined, modality: Modality): Routing {
    let byModality = policy ? this.routings.get(policy) : this.unpoliced;
    if (!byModality) {
      byModality = new Map();
      if (policy) this.routings.set(policy, byModality);
      else this.unpoliced = byModality;
    }
    let r = byModality.get(modality);
    if (!r) {
      const chains = providerChains(policy, {
        defaultFor: this.providers.forModality(modality).name,
        canScore: (name) => this.providers.has(name) && this.providers.get(name).modalities.includes(modality),
      });
      const heads = new Set([...chains.values()].map((chain) => chain[0]));
      const [only] = heads;
      r = { chains, head: heads.size === 1 && only !== undefined ? only : null };
      byModality.set(modality, r);
    }
    return r;
  }

  /** One provider, one request: from the cache when it answered the same before; a
   * ProviderCallError is an outcome (the caller falls back), any other error is thrown. */
  private callProvider(name: string, request: ScoreRequest, attempts: ProviderAttempt[]): Promise<Outcome> {
    const traces = tracing();
    if (!traces.enabled) return this.callProviderNow(name, request, attempts);
    return traces.span('provider.call', { 'cds.provider': name, 'cds.modality': request.modality }, async (span) => {
      const outcome = await this.callProviderNow(name, request, attempts);
      const attempt = attempts[attempts.length - 1];
      span.setAttribute('cds.cached', attempt?.provider === name && !!attempt.cached);
      span.setAttribute('cds.outcome', outcome.ok ? 'ok' : outcome.error.reason);
      return outcome;
    });
  }

  private async callProviderNow(name: string, request: ScoreRequest, attempts: ProviderAttempt[]): Promise<Outcome> {
    const provider = this.providers.get(name);
    const cacheable = this.cache.enabled && name !== LOCAL_PROVIDER;
    const key = cacheable ? providerCacheKey(name, provider.model, request) : '';
    const hit = cacheable ? this.cache.get(key) : undefined;
    if (hit) {
      attempts.push({ provider: name, ok: true, ms: 0, cached: true, ...modelOf(provider.model) });
      return { ok: true, signals: hit.signals, cost: 0 };
    }
    const started = performance.now();
    // The same content is being scored by this provider right now: share that call (not
    // paid twice; `cached`, with the time waited), its failure included.
    const flight = cacheable ? this.cache.inFlight(key) : undefined;
    const shared = flight !== undefined;
    const call = flight ?? this.timed(name, request.modality, () => provider.score(request));
    if (cacheable && !shared) this.cache.fly(key, call);
    try {
      const { signals, cost, model } = await call;
      attempts.push({ provider: name, ok: true, ms: elapsed(started), ...(shared ? { cached: true } : {}), ...modelOf(model ?? provider.model) });
      if (cacheable && !shared) this.cache.set(key, { signals, cost });
      return { ok: true, signals, cost: shared ? 0 : cost };
    } catch (err) {
      if (!(err instanceof ProviderCallError)) throw err;
      attempts.push({ provider: name, ok: false, ms: elapsed(started), reason: err.reason, ...modelOf(provider.model) });
      return { ok: false, error: err };
    }
  }

  private async timed<T>(provider: string, modality: string, call: () => Promise<T>): Promise<T> {
    const started = process.hrtime.bigint();
    try {
      return await call();
    } catch (err) {
      const code = err instanceof ProviderCallError ? err.reason : err instanceof DomainError ? err.code : 'ERROR';
      this.metrics?.providerErrors.inc({ provider, modality, code });
      throw err;
    } finally {
      this.metrics?.providerDuration.observe({ provider, modality }, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  /**
   * A policy over raw signals per provider. With `routes` (who scored each category),
   * a category's score comes from the providers routed to it; without (decisions made
   * before routing, or a category the routes do not name), from every provider, by max.
   */
  decide(policy: ParsedPolicy, signals: Record<string, ScoreMap>, routes?: Record<string, string[]>): PolicyEvaluation {
    const present = Object.keys(signals);
    if (!routes || present.length <= 1) return evaluate(policy, this.providers.fold(signals), providerOf(signals));
    const all = this.providers.fold(signals);
    const foldedBy = new Map(present.map((name) => [name, this.providers.fold({ [name]: signals[name] })]));
    const scores: ScoreMap = {};
    const scoredBy = new Map<string, string>();
    for (const { category } of policy.rules) {
      if (scoredBy.has(category)) continue;
      const who = (getOwn(routes, category) ?? []).filter((name) => foldedBy.has(name));
      const score = who.length === 0 ? getOwn(all, category) : Math.max(...who.map((name) => getOwn(foldedBy.get(name)!, category) ?? 0));
      if (score !== undefined) setOwn(scores, category, score);
      scoredBy.set(category, who.length === 1 ? who[0] : providerOf(signals));
    }
    return evaluate(policy, scores, (category) => scoredBy.get(category));
  }

  /** Each part again under `policy`, and the whole decision over all of them. */
  decideParts(policy: ParsedPolicy, parts: readonly Pick<DecisionPart, 'signals' | 'routes'>[]): { overall: PolicyEvaluation; parts: PolicyEvaluation[] } {
    const each = parts.map((p) => this.decide(policy, p.signals, p.routes));
    // One part (text, image): the whole is that part.
    if (each.length === 1) return { overall: each[0], parts: each };
    const routes = parts.every((p) => p.routes) ? mergeRoutes(...parts.map((p) => p.routes!)) : undefined;
    return { overall: this.decide(policy, mergeBy(parts.map((p) => p.signals)), routes), parts: each };
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

/** Who scored each category, over several items (an image and its text, the parts of a check). */
export function mergeRoutes(...all: Record<string, string[]>[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const routes of all) {
    for (const [category, names] of Object.entries(routes)) setOwn(out, category, [...new Set([...(getOwn(out, category) ?? []), ...names])]);
  }
  return out;
}

/** The routes and every call of a failed routing, in the 503's details. */
function unavailable(categories: string[], chains: Map<string, string[]>, attempts: ProviderAttempt[]): DomainError {
  const tried = attempts.filter((a) => !a.ok).map((a) => `${a.provider} (${a.reason})`);
  const none = categories.filter((c) => (chains.get(c) ?? []).length === 0);
  const details = [
    `no provider could score ${categories.join(', ')}`,
    tried.length ? `tried ${tried.join(', ')}` : '',
    none.length ? `no configured provider for ${none.join(', ')} and this content type` : '',
  ].filter(Boolean);
  return new DomainError('unavailable', 'PROVIDER_UNAVAILABLE', 'No provider could score the content', details.join('; '));
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}

/** The `provider` of a decision: who scored, in name order. */
export function providerOf(signals: Record<string, ScoreMap>): string {
  return Object.keys(signals).sort().join(',');
}

/** `{model}` when there is one: an attempt without a model has no `model` key. */
function modelOf(model: string | undefined): { model?: string } {
  return model ? { model } : {};
}
