import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DomainError } from '@cds/errors';
import { ErrorBody, STATUS_OF, frameworkError } from './error-body';
import { RateLimitedError } from './rate-limited.error';
import { sendJson, setHeader } from './reply';
import { requestIdOf } from './request-id';

const CODE_OF_STATUS: Record<number, [string, string]> = {
  400: ['BAD_REQUEST', 'Bad request'],
  401: ['INVALID_API_KEY', 'Unauthorized'],
  403: ['FORBIDDEN', 'Forbidden'],
  404: ['NOT_FOUND', 'Not found'],
  405: ['METHOD_NOT_ALLOWED', 'Method not allowed'],
  413: ['PAYLOAD_TOO_LARGE', 'Request body too large'],
  415: ['UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type'],
  422: ['VALIDATION_ERROR', 'Invalid request parameters'],
  429: ['RATE_LIMITED', 'Rate limit exceeded'],
};

/**
 * The one place where failures become HTTP: the spec's body {error, code, details}.
 * A 500 is logged with an error id and never leaks a stack.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse();
    const req = host.switchToHttp().getRequest();
    const { status, body } = this.toResponse(exception, requestIdOf(req));
    if (status === 413) keepReadingRefusedBody(req, reply);
    // an error that says when to come back (a rate limit, a full model queue): Retry-After
    if (exception instanceof DomainError && exception.retryAfter !== undefined) {
      setHeader(reply, 'Retry-After', exception.retryAfter);
    }
    sendJson(reply, status, body);
  }

  /** The answer to `exception`; a 500 is logged under `requestId` (the request's, when known). */
  toResponse(exception: unknown, requestId?: string): { status: number; body: ErrorBody | Record<string, unknown> } {
    if (exception instanceof RateLimitedError) {
      // The spec's 429 body is {error, retryAfter}; code and details ride along.
      return { status: 429, body: { error: exception.message, code: exception.code, details: exception.details, retryAfter: exception.retryAfter } };
    }
    if (exception instanceof DomainError) {
      return { status: STATUS_OF[exception.kind], body: { error: exception.message, code: exception.code, details: exception.details } };
    }
    const fw = frameworkError(exception as any);
    if (fw) return fw;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 413) return frameworkError({ code: 'FST_ERR_CTP_BODY_TOO_LARGE' })!;
      const [code, error] = CODE_OF_STATUS[status] ?? ['HTTP_ERROR', exception.message];
      const res = exception.getResponse();
      const details = typeof res === 'object' && res && 'message' in res ? String((res as any).message) : exception.message;
      return { status, body: { error, code, details } };
    }
    const status = (exception as any)?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const [code, error] = CODE_OF_STATUS[status] ?? ['BAD_REQUEST', 'Bad request'];
      return { status, body: { error, code, details: String((exception as any).message ?? '').slice(0, 300) } };
    }
    const errorId = randomUUID();
    this.logger.error({ msg: `error ${errorId}: ${(exception as Error)?.stack ?? String(exception)}`, requestId });
    return { status: 500, body: { error: 'Internal server error', code: 'INTERNAL_ERROR', details: `error id ${errorId}` } };
  }
}

/** Declared bodies up to this size are read to their end after a 413. */
const DRAIN_LIMIT_BYTES = 512 * 1024 * 1024;

/**
 * fastify answers a body over the limit with `connection: close` and closes while the
 * client is still sending: the kernel then resets the connection, and the client (or a
 * proxy in front) can lose the 413 in that reset. For a body of declared length, drop the
 * close: Node reads the rest of it and throws it away, and the 413 arrives whole.
 */
export function keepReadingRefusedBody(request: any, reply: any): void {
  const raw = request?.raw ?? request;
  const declared = Number(raw?.headers?.['content-length']);
  if (!Number.isFinite(declared) || declared > DRAIN_LIMIT_BYTES) return;
  if (typeof reply?.removeHeader === 'function') reply.removeHeader('connection');
  if (reply?.raw) reply.raw.shouldKeepAlive = true;
}
