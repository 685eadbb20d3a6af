import type { Action } from '@cds/events';
import { Named, Field, inline, OptionalField } from '../openapi/answer-fields';
import { arr, bool, dateTime, int, mapOf, nullable, num, ref, str, uuid } from '../openapi/schema-builders';

const action = ref('Action');

/** The answers of /v1/policies and its impact report. */
class PolicyCategory {
  @Field(num()) threshold!: number;
  @Field(action) action!: Action;
  @OptionalField(str()) provider?: string;
}

@Named()
export class Policy {
  @Field(str()) policyId!: string;
  @Field(str()) name!: string;
  @Field(mapOf(inline(PolicyCategory), 'keyed by category name')) categories!: Record<string, PolicyCategory>;
  @Field(int('0 for a built-in policy')) version!: number;
  @Field(bool('the built-in policy of this id, until one of the same id is saved')) builtIn!: boolean;
  @Field(str()) yamlContent!: string;
  @Field(dateTime()) createdAt!: string;
  @Field(dateTime()) updatedAt!: string;
}

@Named()
export class PolicyList {
  @Field(arr(ref(Policy))) policies!: Policy[];
}

class ImpactCategory {
  @Field(str()) category!: string;
  @Field(int()) count!: number;
}

@Named()
export class ImpactChange {
  @Field(action) from!: Action;
  @Field(action) to!: Action;
  @Field(int()) count!: number;
  @Field(arr(inline(ImpactCategory), 'the candidate categories that decided the new action')) categories!: ImpactCategory[];
  @Field(arr(uuid())) sampleDecisionIds!: string[];
}

class ImpactCandidate {
  @Field(str()) name!: string;
  @OptionalField(str("the candidate's own version field")) version?: string;
}

class ImpactWindow {
  @Field(nullable(dateTime())) from!: string | null;
  @Field(nullable(dateTime())) to!: string | null;
  @Field(int()) limit!: number;
  @Field(bool('true when more decisions were in the window than limit')) cut!: boolean;
  @Field(nullable(dateTime())) oldest!: string | null;
  @Field(nullable(dateTime())) newest!: string | null;
}

/** How many decisions took each action. */
class ActionCounts implements Record<Action, number> {
  @Field(int()) allow!: number;
  @Field(int()) warn!: number;
  @Field(int()) flag!: number;
  @Field(int()) block!: number;
}

class ImpactActions {
  @Field(inline(ActionCounts)) before!: ActionCounts;
  @Field(inline(ActionCounts)) after!: ActionCounts;
}

@Named()
export class ImpactReport {
  @Field(str()) policyId!: string;
  @Field(inline(ImpactCandidate)) candidate!: ImpactCandidate;
  @Field(inline(ImpactWindow)) window!: ImpactWindow;
  @Field(int()) evaluated!: number;
  @Field(int()) unchanged!: number;
  @Field(int()) changed!: number;
  @Field(arr(ref(ImpactChange))) changes!: ImpactChange[];
  @Field(inline(ImpactActions)) actions!: ImpactActions;
  @Field(num()) replayMs!: number;
}
