import { ACTIONS } from '@cds/policy';
import { Named, Field, OptionalField } from './answer-fields';
import { int, oneOfValues, str } from './schema-builders';

/** The decision action, one named schema the answers that carry one refer to. */
export const ACTION_SCHEMA = oneOfValues(ACTIONS, 'allow, warn, flag or block, from the mildest to the most severe');

/** The spec's error body. */
@Named()
export class ErrorBody {
  @Field(str('what went wrong')) error!: string;
  @Field(str('machine-readable code, e.g. INVALID_API_KEY')) code!: string;
  @Field(str('what to change')) details!: string;
}

/** A 429's body. */
@Named()
export class RateLimited {
  @Field(str()) error!: string;
  @Field(int('seconds')) retryAfter!: number;
  @OptionalField(str('RATE_LIMITED')) code?: string;
  @OptionalField(str()) details?: string;
}

@Named('why an item, a batch or a video job failed')
export class ItemError {
  @Field(str()) code!: string;
  @Field(str()) message!: string;
  @Field(str()) details!: string;
}
