import type { Action } from '@cds/events';
import { Named, Field, OptionalField } from '../openapi/answer-fields';
import { alwaysTrue, arr, bool, nullable, num, oneOfValues, ref, str, uuid } from '../openapi/schema-builders';

const action = ref('Action');

/** The answers of POST /v1/check, /v1/check/multimodal and /v1/check/dry-run. */
@Named()
export class CategoryResult {
  @Field(str('category name, e.g. violence, sexual, hate, harassment, self-harm')) category!: string;
  @Field(num('confidence, 0 to 1', { minimum: 0, maximum: 1 })) score!: number;
  @Field(num('the policy threshold for the category')) threshold!: number;
  @Field(bool('true when score >= threshold')) triggered!: boolean;
}

/** The spec's Check decision. */
@Named()
export class CheckDecision {
  @Field(bool('true if the content is safe')) safe!: boolean;
  @Field(bool('true if any category triggered')) flagged!: boolean;
  @Field(action) action!: Action;
  @Field(arr(ref(CategoryResult))) categories!: CategoryResult[];
  @Field(uuid()) decisionId!: string;
  @Field(str('the provider that scored the content')) provider!: string;
  @Field(num('milliseconds')) latency!: number;
  @Field(num('USD')) cost!: number;
}

@Named()
export class DryRunResult {
  @Field(alwaysTrue()) dryRun!: true;
  @Field(nullable(str('null when an unsaved policy was evaluated'))) policyId!: string | null;
  @Field(arr(ref(CategoryResult))) categories!: CategoryResult[];
  @Field(bool()) flagged!: boolean;
  @Field(bool()) safe!: boolean;
  @Field(action) action!: Action;
}

@Named()
export class MultimodalResult {
  @Field(oneOfValues(['text', 'image', 'video'])) contentType!: 'text' | 'image' | 'video';
  @Field(bool()) safe!: boolean;
  @Field(bool()) flagged!: boolean;
  @Field(action) action!: Action;
  @Field(arr(ref(CategoryResult))) categories!: CategoryResult[];
  @OptionalField(str('for images, the URL or media reference; absent for text')) contentRef?: string;
}

@Named()
export class MultimodalDecision {
  @Field(uuid()) decisionId!: string;
  @Field(bool()) safe!: boolean;
  @Field(bool()) flagged!: boolean;
  @Field(action) action!: Action;
  @Field(arr(ref(MultimodalResult))) results!: MultimodalResult[];
  @Field(num('ms')) totalLatency!: number;
  @Field(num('USD')) totalCost!: number;
}
