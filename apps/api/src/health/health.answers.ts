import { Named, Field, inline, OptionalField } from '../openapi/answer-fields';
import { bool, mapOf, oneOfValues } from '../openapi/schema-builders';
import { CIRCUIT_STATES, CircuitState } from '../providers/providers.answers';

/** The answers of GET /health and /ready (no key). */
@Named()
export class Health {
  @Field(oneOfValues(['ok'])) status!: 'ok';
}

class LocalTextModelState {
  @Field(oneOfValues(['embedding', 'ngram'])) model!: 'embedding' | 'ngram';
  @Field(oneOfValues(['idle', 'loading', 'ready', 'failed'])) state!: 'idle' | 'loading' | 'ready' | 'failed';
}

@Named()
export class Readiness {
  @Field(oneOfValues(['ready', 'not_ready'])) status!: 'ready' | 'not_ready';
  @Field(bool()) eventLog!: boolean;
  @Field(bool()) readModels!: boolean;
  @Field(inline(LocalTextModelState, "the local provider's text model (LOCAL_TEXT_MODEL): the api is ready once it is")) localTextModel!: LocalTextModelState;
  @OptionalField(
    mapOf(oneOfValues(CIRCUIT_STATES), 'circuit state of each configured provider (an open one does not make the service unready: fallbacks score)'),
  )
  providers?: Record<string, CircuitState>;
}
