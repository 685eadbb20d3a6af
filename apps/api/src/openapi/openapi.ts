import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { OperationObject, ParameterObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ValidationTypes } from 'class-validator';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { answerNames, resolveSchema } from './answer-fields';
import { API_KEY_SCHEME } from './api-docs.decorators';
import { NAMED_VALUES } from './named-schemas';
import { ref } from './schema-builders';
import { ErrorBody } from './shared.answers';
import { MAX_PATH_PARAM_LENGTH } from '../http/error-body';

export const OPENAPI_JSON_PATH = 'v1/openapi.json';
export const DOCS_PATH = 'docs';
/** The version of the API the document describes (info.version). */
export const API_VERSION = '1.0';

const DESCRIPTION = [
  'Decides whether content (text, images, video, or several in one request) is allowed, warned, flagged or blocked under a policy',
  'written in YAML, and vets agent skills and actions before they run. Every decision is kept and can be listed, replayed, or turned',
  'into a reproducing curl command.',
  '',
  'Every /v1 operation takes `Authorization: Bearer <API_KEY>` (the guardrail operations also take a session token). Errors answer',
  '`{error, code, details}`; 429 answers `{error, retryAfter}` with a `Retry-After` header. Keyed answers carry `X-RateLimit-Limit`,',
  '`X-RateLimit-Remaining` and `X-RateLimit-Reset`.',
].join('\n');

/**
 * The OpenAPI 3 document, built from the controllers (paths, parameters, declared answers),
 * the request DTOs (their class-validator rules, so the document states exactly what
 * validation enforces) and the answer classes (*.answers.ts: each field's schema beside its
 * type), served at GET /v1/openapi.json with Swagger UI at /docs.
 */
export function buildOpenApiDocument(app: INestApplication, version = API_VERSION): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Content decision and agent guardrail service')
    .setDescription(DESCRIPTION)
    .setVersion(version)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'an API key (cds_…) or, on the guardrail endpoints, a session token' }, API_KEY_SCHEME)
    .build();
  const doc = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  const { requests: requestSchemas, answers } = classSchemas();
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, ...requestSchemas, ...answers } };
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as OperationObject[]) {
      if (op && typeof op === 'object' && 'responses' in op) tidyOperation(op, requestSchemas);
    }
  }
  return doc;
}

export function serveOpenApi(app: INestApplication, doc: OpenAPIObject): void {
  SwaggerModule.setup(DOCS_PATH, app, doc, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'API — content decision service',
    swaggerOptions: { persistAuthorization: false },
  });
}

const METADATA_RULES = 'free-form; at most 8 levels, 256 keys, 16 KiB; numbers finite';

/** Every class-validator DTO (…Dto) as a JSON schema, by class name: the names the
 * controllers' @Body() types already point at; and every answer class (@Named), with the
 * named schemas that are not classes (value lists, unions), by name. */
function classSchemas(): { requests: Record<string, SchemaObject>; answers: Record<string, SchemaObject> } {
  // class-transformer's @Type() metadata (array item classes); its storage has no typings.
  const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: unknown };
  const options: Parameters<typeof validationMetadatasToSchemas>[0] = {
    refPointerPrefix: '#/components/schemas/',
    classTransformerMetadataStorage: defaultMetadataStorage as never,
    additionalConverters: {
      // The one custom rule, IsMetadata (libs/validation): a free-form object within limits.
      [ValidationTypes.CUSTOM_VALIDATION]: (meta) =>
        meta.name === 'isMetadata' ? { type: 'object', additionalProperties: true, description: METADATA_RULES } : {},
    },
  };
  const all = Object.entries(validationMetadatasToSchemas(options) as Record<string, SchemaObject>);
  const named = answerNames();
  const values = Object.entries(NAMED_VALUES).map(([name, schema]): [string, SchemaObject] => [name, resolveSchema(schema, options) as SchemaObject]);
  return {
    requests: Object.fromEntries(all.filter(([name]) => name.endsWith('Dto'))),
    // By name: the classes load in whatever order the modules are imported.
    answers: Object.fromEntries([...all.filter(([name]) => named.has(name)), ...values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}

type MarkedOperation = OperationObject & { 'x-query-dto'?: string; 'x-public'?: boolean };

function tidyOperation(op: MarkedOperation, schemas: Record<string, SchemaObject>): void {
  expandQueryDto(op, schemas);
  dropUndocumentedHeaders(op);
  if (op.parameters?.some((p) => 'in' in p && p.in === 'path')) {
    op.responses['414'] = {
      description: `A path parameter longer than ${MAX_PATH_PARAM_LENGTH} characters (URI_TOO_LONG)`,
      content: { 'application/json': { schema: ref(ErrorBody) } },
    };
  }
  if (op['x-public']) {
    // A public route in a keyed controller (the evidence URL): no key, no 401/429.
    delete op['x-public'];
    op.security = [];
    for (const status of ['401', '429']) delete op.responses[status];
  }
}

/** Nest lists a @Headers('idempotency-key') argument as a required header of its own; the
 * operation's ApiHeader (optional, described) is the one that stays. */
function dropUndocumentedHeaders(op: OperationObject): void {
  if (!op.parameters) return;
  const described = new Set(op.parameters.filter((p) => 'in' in p && p.in === 'header' && p.description).map((p) => (p as ParameterObject).name.toLowerCase()));
  op.parameters = op.parameters.filter((p) => !('in' in p) || p.in !== 'header' || p.description || !described.has(p.name.toLowerCase()));
}

/** An operation marked with ApiQueryFrom(Dto) gets one query parameter per DTO field. */
function expandQueryDto(op: MarkedOperation, schemas: Record<string, SchemaObject>): void {
  const name = op['x-query-dto'];
  if (!name) return;
  delete op['x-query-dto'];
  const schema = schemas[name];
  if (!schema?.properties) throw new Error(`ApiQueryFrom: no schema for ${name}`);
  const params: ParameterObject[] = Object.entries(schema.properties).map(([field, s]) => ({
    name: field,
    in: 'query',
    required: schema.required?.includes(field) ?? false,
    schema: s,
  }));
  const others = (op.parameters ?? []).filter((p) => !('in' in p) || p.in !== 'query' || !params.some((q) => q.name === p.name));
  op.parameters = [...others, ...params];
}
