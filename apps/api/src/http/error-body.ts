import { DomainErrorKind } from '@cds/errors';

/** The spec's error body. */
export interface ErrorBody {
  error: string;
  code: string;
  details: string;
}

export const STATUS_OF: Record<DomainErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  invalid: 422,
  rate_limited: 429,
  unavailable: 503,
};

/** Longest path parameter (ids) fastify routes; past it, 414 URI_TOO_LONG. */
export const MAX_PATH_PARAM_LENGTH = 1024;

/** Errors raised by the HTTP frameworks themselves (body parsing, limits), by their
 * own codes, mapped onto the spec's statuses and our stable codes. */
export function frameworkError(err: {
  code?: string;
  type?: string;
  status?: number;
  statusCode?: number;
  message?: string;
}): { status: number; body: ErrorBody } | null {
  const code = err.code ?? err.type;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'entity.too.large':
      return {
        status: 413,
        body: {
          error: 'Request body too large',
          code: 'PAYLOAD_TOO_LARGE',
          details:
            'the request body exceeds the limit of this endpoint (MAX_BODY_BYTES; the check, batch and multimodal endpoints take one, or ten, images of MAX_IMAGE_BYTES)',
        },
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'entity.parse.failed':
    case 'encoding.unsupported':
    case 'charset.unsupported':
    case 'request.aborted':
    case 'request.size.invalid':
      return { status: 400, body: { error: 'Malformed request body', code: 'INVALID_JSON', details: describe(err.message) } };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return {
        status: 414,
        body: { error: 'URI too long', code: 'URI_TOO_LONG', details: `a path segment is longer than ${MAX_PATH_PARAM_LENGTH} characters` },
      };
    case 'FST_ERR_BAD_URL':
      return { status: 400, body: { error: 'Malformed URL', code: 'BAD_URL', details: 'the request path is not a valid URL (bad percent-encoding?)' } };
    default:
      break; // not an error of the frameworks' own
  }
  if (err instanceof SyntaxError) {
    return { status: 400, body: { error: 'Malformed request body', code: 'INVALID_JSON', details: describe(err.message) } };
  }
  return null;
}

function describe(message: string | undefined): string {
  return (message ?? '').replace(/^FST_ERR_[A-Z_]+:\s*/, '').slice(0, 300);
}
