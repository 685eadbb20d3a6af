/** Stored decisions, replay and curl (README "Decisions", "Replay", "Curl").
 * The answers are the service's OpenAPI schemas (openapi.generated.ts, `npm run sdk:types`). */
import type { components } from './openapi.generated';

type Schemas = components['schemas'];

export type MediaInfo = Schemas['MediaInfo'];

/** One item scored: `contentRef` is the image's URL or media reference, null for text. */
export type DecisionPart = Schemas['DecisionPart'];

/** `content`: the text; for an image its URL or `media:sha256:<hex>`; for a multimodal check its text.
 * `signals`: raw signals per provider, `{"local": {"hate": 0.02}}`. */
export type StoredDecision = Schemas['StoredDecision'];

/** Query of `GET /v1/decisions`, newest first: `limit` 1–1000 (default 50), `offset` (default 0); `from` and `to`
 * inclusive ISO 8601 bounds on `timestamp`; `userId`: decisions whose `metadata.userId` (or multimodal
 * `context.userId`) is this value; `category`: decisions in which it triggered; `q`: full text over the content. */
export type DecisionFilter = Schemas['ListDecisionsQueryDto'];

export type DecisionList = Schemas['DecisionList'];

/** The Check decision the given policy would have made, under the original decisionId. Nothing is recorded.
 * `results`: for a multimodal decision, per item. */
export type ReplayedDecision = Schemas['ReplayedDecision'];

/** `curl`: one line of printable ASCII re-running the check, reading the key from `$API_KEY`. */
export type DecisionCurl = Schemas['CurlCommand'];

export interface Media {
  /** `image/<format>`, or application/octet-stream. */
  contentType: string;
  bytes: Buffer;
}
