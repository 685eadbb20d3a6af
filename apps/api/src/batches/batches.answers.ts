import type { Action } from '@cds/events';
import { Named, Field, inline, OptionalField } from '../openapi/answer-fields';
import { ItemError } from '../openapi/shared.answers';
import { arr, bool, dateTime, int, nullable, oneOfValues, ref, Schema, str, uuid } from '../openapi/schema-builders';

/** The answers of POST /v1/batch/check, /v1/batch/check/async and GET /v1/batch/{id}. */
class BatchItemDecided {
  @Field(str()) id!: string;
  @Field(bool()) safe!: boolean;
  @Field(ref('Action')) action!: Action;
  @Field(uuid()) decisionId!: string;
}

class BatchItemFailed {
  @Field(str()) id!: string;
  @Field(ref(ItemError)) error!: ItemError;
}

export type BatchItemResult = BatchItemDecided | BatchItemFailed;
/** A named schema of the document (a union, so not a class of its own). */
export const BATCH_ITEM_RESULT: Schema = {
  description: "one item's decision, or why it could not be checked (the others are unaffected)",
  oneOf: [inline(BatchItemDecided), inline(BatchItemFailed)],
};

@Named()
export class BatchResult {
  @Field(arr(ref('BatchItemResult'))) items!: BatchItemResult[];
}

@Named()
export class AsyncBatchAccepted {
  @Field(uuid()) batchId!: string;
  @Field(oneOfValues(['processing'])) status!: 'processing';
  @Field(int()) totalItems!: number;
  @OptionalField(str('signing secret of the deliveries, when no registered webhook has this URL (shown once)')) webhookSecret?: string;
  @OptionalField(uuid()) signingWebhookId?: string;
}

@Named()
export class AsyncBatch {
  @Field(uuid()) batchId!: string;
  @Field(oneOfValues(['processing', 'completed', 'failed'])) status!: 'processing' | 'completed' | 'failed';
  @Field(str()) policyId!: string;
  @Field(int()) totalItems!: number;
  @Field(str()) webhookUrl!: string;
  @Field(dateTime()) createdAt!: string;
  @Field(nullable(dateTime())) completedAt!: string | null;
  @Field(nullable(int())) succeeded!: number | null;
  @Field(nullable(int())) failed!: number | null;
  @Field(nullable(arr(ref('BatchItemResult'), 'per-item results once completed'))) items!: BatchItemResult[] | null;
  @Field(nullable(ref(ItemError))) error!: ItemError | null;
}
