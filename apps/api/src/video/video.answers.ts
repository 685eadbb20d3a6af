import type { Action } from '@cds/events';
import { Named, Field, inline, OptionalField } from '../openapi/answer-fields';
import { ItemError } from '../openapi/shared.answers';
import { CategoryResult } from '../checks/checks.answers';
import { arr, bool, dateTime, int, num, oneOfValues, ref, Schema, str, uuid } from '../openapi/schema-builders';

const action = ref('Action');

/** The answers of POST /v1/video/check and /upload, GET /v1/video/status/{id} and /result/{id}. */
@Named()
export class VideoAccepted {
  @Field(uuid()) decisionId!: string;
  @Field(oneOfValues(['processing'])) status!: 'processing';
  @Field(num('seconds')) estimatedTime!: number;
  @Field(num()) estimatedFrames!: number;
  @Field(num('USD')) estimatedCost!: number;
  @OptionalField(str()) webhookSecret?: string;
  @OptionalField(uuid()) signingWebhookId?: string;
}

@Named()
export class VideoProgress {
  @Field(int()) framesProcessed!: number;
  @Field(int()) framesTotal!: number;
  @Field(int(undefined, { minimum: 0, maximum: 100 })) percentComplete!: number;
}

@Named()
export class VideoStatus {
  @Field(uuid()) decisionId!: string;
  @Field(oneOfValues(['processing', 'completed', 'failed'])) status!: 'processing' | 'completed' | 'failed';
  @Field(ref(VideoProgress)) progress!: VideoProgress;
  @Field(dateTime()) estimatedCompletion!: string;
  @OptionalField(ref(ItemError)) error?: ItemError;
}

class FrameEvidence {
  @Field(str('signed URL of the frame, no API key needed')) url!: string;
  @Field(dateTime()) expiresAt!: string;
}

@Named()
export class VideoFrameResult {
  @Field(int()) frameNumber!: number;
  @Field(num('position in the video, seconds')) timestamp!: number;
  @Field(bool()) safe!: boolean;
  @Field(bool()) flagged!: boolean;
  @Field(action) action!: Action;
  @Field(arr(ref(CategoryResult))) categories!: CategoryResult[];
  @OptionalField(str()) ocrText?: string;
  @OptionalField(inline(FrameEvidence, 'on flagged frames')) evidence?: FrameEvidence;
}

@Named()
export class VideoSegment {
  @Field(num('seconds: the first flagged frame of the run')) start!: number;
  @Field(num('seconds: the last flagged frame of the run')) end!: number;
  @Field(arr(str())) categories!: string[];
  @Field(action) action!: Action;
  @Field(int()) frames!: number;
}

@Named()
export class VideoCompleted {
  @Field(uuid()) decisionId!: string;
  @Field(oneOfValues(['completed'])) status!: 'completed';
  @Field(bool()) safe!: boolean;
  @Field(bool()) flagged!: boolean;
  @Field(action) action!: Action;
  @Field(arr(ref(CategoryResult))) categories!: CategoryResult[];
  @Field(arr(ref(VideoFrameResult))) results!: VideoFrameResult[];
  @Field(arr(ref(VideoSegment), 'runs of consecutive flagged frames')) segments!: VideoSegment[];
  @Field(bool()) stoppedOnBlock!: boolean;
  @Field(int()) framesProcessed!: number;
  @Field(num('ms')) totalLatency!: number;
  @Field(num('USD')) totalCost!: number;
  @Field(str()) policyId!: string;
  @Field(int()) policyVersion!: number;
  @Field(str()) provider!: string;
}

@Named()
export class VideoProcessing {
  @Field(uuid()) decisionId!: string;
  @Field(oneOfValues(['processing'])) status!: 'processing';
  @Field(ref(VideoProgress)) progress!: VideoProgress;
  @Field(dateTime()) estimatedCompletion!: string;
}

@Named()
export class VideoFailed {
  @Field(uuid()) decisionId!: string;
  @Field(oneOfValues(['failed'])) status!: 'failed';
  @Field(ref(ItemError)) error!: ItemError;
}

export type VideoResult = VideoCompleted | VideoProcessing | VideoFailed;
/** A named schema of the document (a union, so not a class of its own). */
export const VIDEO_RESULT: Schema = {
  description: 'completed (200): the result; processing (202): the progress; failed (200): the reason',
  oneOf: [ref(VideoCompleted), ref(VideoProcessing), ref(VideoFailed)],
};
