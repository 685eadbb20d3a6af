/** Stored decisions, replay and curl (README "Decisions", "Replay", "Curl"). */
import type { Action, CategoryResult, CheckDecision, MultimodalResult } from './checks.types';

export interface MediaInfo {
  sha256: string;
  format: string;
  width: number;
  height: number;
  bytes: number;
  frameCount: number;
  framesScored: number;
}

export interface DecisionPart {
  contentType: string;
  /** The image's URL or media reference; null for text. */
  contentRef: string | null;
  signals: Record<string, Record<string, number>>;
  ocrText: string | null;
  media: MediaInfo | null;
  categories: CategoryResult[];
  action: Action;
  safe: boolean;
  flagged: boolean;
}

export interface StoredDecision {
  decisionId: string;
  /** The text; for an image its URL or `media:sha256:<hex>`; for a multimodal check its text. */
  content: string;
  safe: boolean;
  flagged: boolean;
  action: Action;
  /** ISO 8601 UTC. */
  timestamp: string;
  policyId: string;
  policyVersion: number;
  categories: CategoryResult[];
  contentType: 'text' | 'image' | 'multimodal' | 'video';
  language: string;
  metadata: Record<string, unknown>;
  requestId: string | null;
  /** Who scored; several are comma-separated. */
  provider: string;
  /** Raw signals per provider: `{"local": {"hate": 0.02}}`. */
  signals: Record<string, Record<string, number>>;
  parts: DecisionPart[];
  latency: number;
  cost: number;
}

/** Query of `GET /v1/decisions`: newest first. */
export interface DecisionFilter {
  /** 1–1000, default 50. */
  limit?: number;
  /** Default 0. */
  offset?: number;
  action?: Action;
  policyId?: string;
  /** Inclusive ISO 8601 bounds on `timestamp`. */
  from?: string;
  to?: string;
  /** Decisions whose `metadata.userId` (or multimodal `context.userId`) is this value. */
  userId?: string;
}

export interface DecisionList {
  decisions: StoredDecision[];
}

/** The Check decision the given policy would have made, under the original decisionId. Nothing is recorded. */
export interface ReplayedDecision extends CheckDecision {
  policyId: string;
  policyVersion: number;
  replayed: true;
  original: { policyId: string; policyVersion: number; action: Action; safe: boolean };
  /** For a multimodal decision, per item. */
  results?: MultimodalResult[];
}

export interface DecisionCurl {
  /** One line of printable ASCII re-running the check, reading the key from `$API_KEY`. */
  curl: string;
}

export interface Media {
  /** `image/<format>`, or application/octet-stream. */
  contentType: string;
  bytes: Buffer;
}
