import { SCOPES, Scope } from '@cds/auth';
import { Named, Extends, Field } from '../openapi/answer-fields';
import { arr, dateTime, nullable, oneOfValues, ref, str, uuid } from '../openapi/schema-builders';

/** The answers of /v1/keys: a key as listed (never the key itself). */
@Named()
export class ApiKey {
  @Field(uuid()) id!: string;
  @Field(str()) name!: string;
  @Field(arr(oneOfValues(SCOPES))) scopes!: Scope[];
  @Field(str()) tenantId!: string;
  @Field(str()) prefix!: string;
  @Field(dateTime()) createdAt!: string;
  @Field(nullable(dateTime())) revokedAt!: string | null;
}

@Named()
@Extends(ApiKey)
export class ApiKeyCreated extends ApiKey {
  @Field(str('the key itself, shown once')) key!: string;
}

@Named()
export class ApiKeyList {
  @Field(arr(ref(ApiKey))) keys!: ApiKey[];
}
