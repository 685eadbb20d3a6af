import { ScoreMap } from '@cds/events';
import { SignalFolding } from '@cds/policy';

/** What a provider can score. */
export type Modality = 'text' | 'image';

/** An image as the check path prepared it: the original bytes (for providers that take
 * the file) and the decoded frames at the size the local model takes. */
export interface ImageForScoring {
  bytes: Buffer;
  format: string;
  width: number;
  height: number;
  /** RGB, `frameSize`² × 3 bytes each: one for a still image, a few spread over an animation. */
  frames: Buffer[];
  /** The same frames fitted inside the square over a blurred copy of themselves (padFrame
   * in @cds/media), as the local image safety model takes them; same size and order. */
  paddedFrames?: Buffer[];
  frameSize: number;
}

/** `injection` (text): the policy asks for the prompt_injection or jailbreak category, so
 * the provider scores them too (a pass or a call it otherwise saves). */
export type ScoreRequest =
  { modality: 'text'; text: string; language: string; injection?: boolean } | { modality: 'image'; image: ImageForScoring; language: string };

/** A provider's answer: raw named signals in [0, 1] and what the call cost (USD). */
export interface ProviderScore {
  signals: ScoreMap;
  cost: number;
  /** The model that scored this request, when it says more than the provider's `model`
   * (the local provider: its text model or its image model). */
  model?: string;
}

/** A provider's circuit breaker: `open` fails calls fast, `half_open` lets one probe through. */
export type CircuitState = 'closed' | 'open' | 'half_open';

/**
 * A moderation provider. It names its signals itself; `folding` says how they fold into
 * the policy categories. Nothing outside libs/providers knows a provider's signal names.
 * An external provider's `score` fails with a ProviderCallError (see external/README.md).
 */
export interface ModerationProvider {
  readonly name: string;
  readonly modalities: readonly Modality[];
  readonly folding: SignalFolding;
  /** The model behind it, when it has a choice of them (part of the cache key). */
  readonly model?: string;
  score(request: ScoreRequest): Promise<ProviderScore>;
  /** The state of its circuit breaker; a provider without one (local) is always `closed`. */
  circuitState?(): CircuitState;
}

/** A provider this build knows, whether or not this process has it (for GET /v1/providers). */
export interface ProviderDescription {
  name: string;
  /** False: the build knows it but its configuration (key, endpoint) is not set. */
  configured: boolean;
  modalities: Modality[];
  /** `closed` for a provider without a breaker and for one not configured. */
  circuit: CircuitState;
}

/** A provider known but not configured: what describe() says about it. */
export interface KnownProvider {
  name: string;
  modalities: readonly Modality[];
}

export const PROVIDER_REGISTRY = Symbol('PROVIDER_REGISTRY');

/** Picks providers by name and folds stored signals without calling anyone (replay, dry-run). */
export interface ProviderRegistry {
  /** The provider that scores a modality when a policy names none. */
  forModality(modality: Modality): ModerationProvider;
  /** A configured provider by name; throws PROVIDER_NOT_CONFIGURED otherwise. */
  get(name: string): ModerationProvider;
  has(name: string): boolean;
  names(): string[];
  /**
   * Category scores of stored raw signals: each provider's signals folded with its own
   * map, then merged by max (a category's score is the highest any provider gave it).
   */
  fold(signalsByProvider: Record<string, ScoreMap>): ScoreMap;
  /** The folding of mock signals in a dry run: the default provider's. */
  defaultFolding(): SignalFolding;
  /** Every provider this build knows: the configured ones first, in registration order. */
  describe(): ProviderDescription[];
}
