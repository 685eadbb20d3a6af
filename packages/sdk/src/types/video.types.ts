/** Video jobs (README "Video"). */
import type { Action, CategoryResult, ItemError } from './checks.types';

export interface ExtractionStrategy {
  /** Seconds between sampled frames (interval mode), default 2. */
  frameInterval?: number;
  /** Default 60, at most VIDEO_FRAMES_CAP (300). */
  maxFrames?: number;
  mode?: 'interval' | 'scenes';
  /** Stop at the first frame whose action is `block`. */
  stopOnBlock?: boolean;
}

export interface VideoOptions {
  policyId: string;
  webhookUrl?: string;
  extractionStrategy?: ExtractionStrategy;
  /** Default 300; a longer video is refused whole (422 VIDEO_TOO_LONG). */
  maxDurationSeconds?: number;
  language?: string;
  metadata?: Record<string, unknown>;
}

export interface VideoCheckRequest extends VideoOptions {
  videoUrl: string;
}

/** The text fields sent beside the file by `videoUpload`. */
export interface VideoUploadFields extends VideoOptions {
  /** File name given to the multipart part (default `video`). */
  filename?: string;
  /** Content type of the multipart part (default `application/octet-stream`; the service sniffs the bytes). */
  fileContentType?: string;
}

export interface VideoAccepted {
  decisionId: string;
  status: 'processing';
  /** Seconds. */
  estimatedTime: number;
  estimatedFrames: number;
  estimatedCost: number;
  webhookSecret?: string;
  signingWebhookId?: string;
}

export interface VideoProgress {
  framesProcessed: number;
  framesTotal: number;
  percentComplete: number;
}

export interface VideoStatus {
  decisionId: string;
  status: 'processing' | 'completed' | 'failed';
  progress: VideoProgress;
  estimatedCompletion: string | null;
  error?: ItemError;
}

export interface VideoFrameResult {
  frameNumber: number;
  /** Position in the video, seconds. */
  timestamp: number;
  safe: boolean;
  flagged: boolean;
  action: Action;
  categories: CategoryResult[];
  ocrText?: string;
  /** On flagged frames: a signed capability URL (no API key needed) and when it expires. */
  evidence?: { url: string; expiresAt: string };
}

export interface VideoSegment {
  /** Seconds: the first and the last flagged frame of the run. */
  start: number;
  end: number;
  categories: string[];
  action: Action;
  frames: number;
}

export interface VideoCompleted {
  decisionId: string;
  status: 'completed';
  safe: boolean;
  flagged: boolean;
  action: Action;
  categories: CategoryResult[];
  results: VideoFrameResult[];
  segments: VideoSegment[];
  stoppedOnBlock: boolean;
  framesProcessed: number;
  totalLatency: number;
  totalCost: number;
  policyId: string;
  policyVersion: number;
  provider: string;
}

/** Answered with 202 while the job runs. */
export interface VideoProcessing {
  decisionId: string;
  status: 'processing';
  progress: VideoProgress;
  estimatedCompletion: string | null;
}

export interface VideoFailed {
  decisionId: string;
  status: 'failed';
  error: ItemError;
}

export type VideoResult = VideoCompleted | VideoProcessing | VideoFailed;
