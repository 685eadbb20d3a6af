import { Named, Field, inline } from '../openapi/answer-fields';
import { arr, bool, oneOfValues, str } from '../openapi/schema-builders';

/** The answer of GET /v1/providers. */
export const CIRCUIT_STATES = ['closed', 'open', 'half_open'] as const;
export type CircuitState = (typeof CIRCUIT_STATES)[number];

class ProviderInfo {
  @Field(str()) name!: string;
  @Field(bool('false: this build knows it, but its key or endpoint is not set')) configured!: boolean;
  @Field(arr(oneOfValues(['text', 'image']))) modalities!: ('text' | 'image')[];
  @Field(oneOfValues(CIRCUIT_STATES)) circuit!: CircuitState;
}

class ModalityDefaults {
  @Field(str()) text!: string;
  @Field(str()) image!: string;
}

@Named()
export class ProviderList {
  @Field(arr(inline(ProviderInfo))) providers!: ProviderInfo[];
  @Field(inline(ModalityDefaults, 'who scores a modality when a policy names no provider (DEFAULT_PROVIDER)')) defaults!: ModalityDefaults;
}
