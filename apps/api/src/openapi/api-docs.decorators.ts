import { applyDecorators, HttpCode } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { HeadersObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ref } from './schema-builders';
import { ErrorBody, RateLimited } from './shared.answers';

/** The security scheme every /v1 operation (but the evidence URL) declares. */
export const API_KEY_SCHEME = 'apiKey';

const RATE_LIMIT_HEADERS: HeadersObject = {
  'X-RateLimit-Limit': { description: 'requests allowed per minute for this key', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'requests left in the current minute', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) when the window resets', schema: { type: 'integer' } },
};

const RETRY_AFTER: HeadersObject = { 'Retry-After': { description: 'seconds', schema: { type: 'integer' } } };

const ERRORS: Record<number, string> = {
  400: 'Malformed request: not JSON (INVALID_JSON), not an object, nested too deep (INVALID_BODY)',
  401: 'Missing, unknown or revoked API key (INVALID_API_KEY), or an expired session token',
  403: 'The key lacks the scope of this operation (INSUFFICIENT_SCOPE)',
  404: 'Unknown resource id (e.g. DECISION_NOT_FOUND, POLICY_NOT_FOUND, WEBHOOK_NOT_FOUND)',
  409: 'Conflict with the current state',
  413: 'Body over the limit of this endpoint (PAYLOAD_TOO_LARGE; IMAGE_TOO_LARGE, VIDEO_TOO_LARGE)',
  415: 'Unsupported content type',
  422: 'Invalid request parameters: the code names the rule (VALIDATION_ERROR, INVALID_POLICY, …) and details the field',
  503: 'A dependency is unavailable (EVENT_LOG_UNAVAILABLE, READ_MODELS_UNAVAILABLE, OCR_UNAVAILABLE, …): retry with backoff; a full model queue (TEXT_QUEUE_FULL, IMAGE_QUEUE_FULL) also sends Retry-After (seconds)',
};

/** The success answer of an operation: a component schema by name, with the rate-limit headers. */
export function ApiAnswer(status: number, schema: Function | string, description = 'OK') {
  return ApiResponse({ status, description, schema: ref(schema), headers: RATE_LIMIT_HEADERS });
}

/** A binary success answer (an image) of a keyed operation. */
export function ApiBinaryAnswer(contentType: string, description: string) {
  return ApiResponse({ status: 200, description, content: { [contentType]: { schema: { type: 'string', format: 'binary' } } }, headers: RATE_LIMIT_HEADERS });
}

/** Error answers, each with the spec's error body {error, code, details}. */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: ERRORS[status] ?? 'Error',
        schema: ref(ErrorBody),
        headers: status === 503 ? { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER } : RATE_LIMIT_HEADERS,
      }),
    ),
  );
}

/** What every keyed operation may answer besides its own: 401, 403, 429 with its own body
 * and Retry-After, 503. Applied with RequireScope, which is what enforces them. */
export function ApiKeyed() {
  return applyDecorators(
    ApiBearerAuth(API_KEY_SCHEME),
    ApiErrors(401, 403, 503),
    ApiResponse({
      status: 429,
      description: 'Rate limit exceeded: retry after `retryAfter` seconds',
      schema: ref(RateLimited),
      headers: { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER },
    }),
  );
}

/** Errors of any operation that takes a JSON body. */
const BODY_ERRORS = [400, 413, 422];

const SUCCESS: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted' };

/** What an operation answers besides its success: `body` when it takes a JSON body (400, 413,
 * 422), and its own `errors`. `status`, 200 unless said, is both the one the route sends and
 * the one the document gives its answer. */
export interface EndpointAnswers {
  status?: 200 | 201 | 202;
  body?: boolean;
  errors?: number[];
}

/** One operation: its summary, its success answer (a component schema by class or name) with
 * its status, and its error answers: what every endpoint says, said once. */
export function Endpoint(summary: string, answer: Function | string, { status = 200, body = false, errors = [] }: EndpointAnswers = {}) {
  return applyDecorators(
    HttpCode(status),
    ApiOperation({ summary }),
    ApiAnswer(status, answer, SUCCESS[status]),
    ApiErrors(...(body ? BODY_ERRORS : []), ...errors),
  );
}

/** Query parameters described from a class-validator DTO (expanded when the document is built). */
export function ApiQueryFrom(dto: Function) {
  return ApiExtension('x-query-dto', dto.name);
}
