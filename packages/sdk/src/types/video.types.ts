/** Video jobs (README "Video").
 * The answers are the service's OpenAPI schemas (openapi.generated.ts, `npm run sdk:types`). */
import type { components } from './openapi.generated';

type Schemas = components['schemas'];

/** `frameInterval`: seconds between sampled frames (interval mode), default 2; `maxFrames`: default 60, at most
 * VIDEO_FRAMES_CAP (300); `stopOnBlock`: stop at the first frame whose action is `block`. */
export type ExtractionStrategy = Schemas['ExtractionStrategyDto'];

/** `maxDurationSeconds`: default 300; a longer video is refused whole (422 VIDEO_TOO_LONG). */
export type VideoOptions = Schemas['VideoOptionsDto'];

export type VideoCheckRequest = Schemas['VideoCheckDto'];

/** The text fields sent beside the file by `videoUpload`. */
export interface VideoUploadFields extends VideoOptions {
  /** File name given to the multipart part (default `video`). */
  filename?: string;
  /** Content type of the multipart part (default `application/octet-stream`; the service sniffs the bytes). */
  fileContentType?: string;
}

/** `estimatedTime` in seconds. */
export type VideoAccepted = Schemas['VideoAccepted'];

export type VideoProgress = Schemas['VideoProgress'];

export type VideoStatus = Schemas['VideoStatus'];

/** `evidence`, on flagged frames: a signed capability URL (no API key needed) and when it expires. */
export type VideoFrameResult = Schemas['VideoFrameResult'];

/** Seconds: the first and the last flagged frame of the run. */
export type VideoSegment = Schemas['VideoSegment'];

export type VideoCompleted = Schemas['VideoCompleted'];

/** Answered with 202 while the job runs. */
export type VideoProcessing = Schemas['VideoProcessing'];

export type VideoFailed = Schemas['VideoFailed'];

export type VideoResult = Schemas['VideoResult'];
