import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { INestApplication, Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppConfig } from '@cds/config';
import { DomainError } from '@cds/errors';
import { Metrics } from '@cds/metrics';
import { acceptRequestId, AccessLog, REQUEST_ID_HEADER } from '@cds/logging';
import { RequestSpan, tracing } from '@cds/tracing';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { DEFAULT_MULTIPART_LIMITS, isMultipartRequest, MULTIPART_LIMITS, MultipartLimits, registerFastifyMultipart } from './multipart';
import { sendJson } from './reply';
import { REQUEST_ID, requestIdOf } from './request-id';
import { MAX_PATH_PARAM_LENGTH } from './error-body';

/**
 * The one seam where the HTTP framework is chosen (HTTP_ADAPTER): fastify by default,
 * express kept working. Body limits and body-parse errors are set up here, per
 * adapter, so both answer with the spec's error body. `multipart/form-data` is not parsed
 * here: a route reads it as it streams, through multipart.ts, under `multipartLimits`.
 */
export async function createHttpApp(module: unknown, config: AppConfig, logger: Logger | false): Promise<INestApplication> {
  const filter = new AllExceptionsFilter();
  const traces = tracing();
  const access = new AccessLog({
    enabled: config.ACCESS_LOG === 'on',
    maxPerSecond: config.ACCESS_LOG_MAX_PER_SECOND,
    write: (line) => accessLogger.log(line),
  });
  // abortOnError false: a failure while building the app rejects (main prints it and exits 1)
  // instead of Nest exiting the process itself.
  const options = { logger: logger === false ? (false as const) : undefined, bufferLogs: false, abortOnError: false };
  // Only the chosen adapter's framework is loaded: the other costs ~0.1 s of CPU at each start.
  if (config.HTTP_ADAPTER === 'express') {
    const { ExpressAdapter } = await import('@nestjs/platform-express');
    const app = await NestFactory.create<NestExpressApplication>(module as any, new ExpressAdapter(), { ...options, bodyParser: false });
    const express = require('express');
    const inst = app.getHttpAdapter().getInstance();
    inst.disable('x-powered-by');
    const metrics = metricsOf(app);
    inst.use((req: any, res: any, next: () => void) => {
      const requestId = acceptRequestId(req.headers[REQUEST_ID_HEADER]);
      res.setHeader(REQUEST_ID_HEADER, requestId);
      if (draining) res.setHeader('connection', 'close');
      const started = process.hrtime.bigint();
      // Tracing on: the request's span, active for the rest of its handling (the body's
      // listeners bound to it too: express reads the body after this middleware).
      const span = traces.enabled ? traces.startRequest(req.method, req.headers) : null;
      res.on('finish', () => {
        const route = req.route?.path ? `${req.baseUrl ?? ''}${req.route.path}` : 'unmatched';
        observeRequest(metrics, access, req, route, res.statusCode, started, requestId);
        if (span) endRequestSpan(span, req, route, res.statusCode, requestId);
      });
      req[REQUEST_ID] = requestId;
      if (!span) return next();
      span.bind(req);
      span.run(next);
    });
    inst.set('trust proxy', false);
    const limits = mediaBodyLimits(config);
    const multipart = multipartLimits(config);
    const parsers = new Map<number, unknown>();
    const parserFor = (limit: number) => {
      // Read as text and parsed by the same parseJson as on fastify: same depth limit,
      // same prototype-key handling, same errors.
      if (!parsers.has(limit)) parsers.set(limit, express.text({ limit, type: () => true }));
      return parsers.get(limit) as (req: unknown, res: unknown, next: unknown) => void;
    };
    inst.use((req: any, res: unknown, next: () => void) => {
      if (!isMultipartRequest(req.headers)) return parserFor(limits.get(req.path) ?? config.MAX_BODY_BYTES)(req, res, next);
      // Left unread: the route's @MultipartBody() streams it with busboy.
      req[MULTIPART_LIMITS] = multipart(req.path);
      next();
    });
    inst.use((req: any, _res: unknown, next: (e?: unknown) => void) => {
      try {
        if (typeof req.body === 'string') req.body = req.body === '' ? undefined : parseJson(req.body);
        next();
      } catch (err) {
        next(err);
      }
    });
    // express.json leaves {} for an empty body; fastify leaves nothing. Make both
    // "no body", so an empty POST is a 400 on either adapter.
    inst.use((req: any, _res: unknown, next: () => void) => {
      const len = req.headers['content-length'];
      if ((len === undefined || len === '0') && req.headers['transfer-encoding'] === undefined) req.body = undefined;
      next();
    });
    inst.use((err: unknown, req: unknown, res: unknown, next: (e?: unknown) => void) => {
      if (!err) return next();
      const { status, body } = filter.toResponse(err, requestIdOf(req));
      sendJson(res, status, body);
    });
    return app;
  }
  const { FastifyAdapter } = await import('@nestjs/platform-fastify');
  const adapter = new FastifyAdapter({
    bodyLimit: config.MAX_BODY_BYTES,
    trustProxy: false,
    return503OnClosing: true,
    // A trailing slash routes as without one, as express does (e.g. /console/).
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH, ignoreTrailingSlash: true },
    // Errors fastify raises before any route (a path parameter too long, a malformed URL)
    // answer the spec's error body too.
    frameworkErrors: (err: Error, req: unknown, reply: any) => {
      const { status, body } = filter.toResponse(err, requestIdOf(req));
      reply.code(status).send(body);
    },
  });
  // bodyParser false: Nest would otherwise register its own application/json parser at
  // init, ahead of ours, and a malformed JSON body would answer another code.
  const app = await NestFactory.create<NestFastifyApplication>(module as any, adapter, { ...options, bodyParser: false });
  const fastify = app.getHttpAdapter().getInstance();
  const metrics = metricsOf(app);
  fastify.addHook('onRequest', (req: any, reply: any, done: () => void) => {
    req.cdsStarted = process.hrtime.bigint();
    const requestId = acceptRequestId(req.headers[REQUEST_ID_HEADER]);
    reply.header(REQUEST_ID_HEADER, requestId);
    req[REQUEST_ID] = requestId;
    done();
  });
  // Draining: an answer still in flight closes its connection, so close() does not wait
  // for idle keep-alive sockets (it closes only those idle when it starts).
  fastify.addHook('onSend', (_req: unknown, reply: any, payload: unknown, done: (e: null, p: unknown) => void) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  fastify.addHook('onResponse', (req: any, reply: any, done: () => void) => {
    observeRequest(metrics, access, req, req.routeOptions?.url ?? 'unmatched', reply.statusCode, req.cdsStarted, reply.getHeader(REQUEST_ID_HEADER));
    if (req.cdsSpan) endRequestSpan(req.cdsSpan, req, req.routeOptions?.url ?? 'unmatched', reply.statusCode, reply.getHeader(REQUEST_ID_HEADER));
    done();
  });
  // Tracing on: a span per request, active while the route runs (guards, pipes, the
  // handler and all it awaits); no hook at all when it is off.
  if (traces.enabled) {
    fastify.addHook('onRequest', (req: any, _reply: unknown, done: () => void) => {
      req.cdsSpan = traces.startRequest(req.method, req.headers);
      done();
    });
    fastify.addHook('preHandler', (req: any, _reply: unknown, done: () => void) => {
      if (req.cdsSpan) req.cdsSpan.run(done);
      else done();
    });
  }
  // The endpoints that carry images take bodies sized for them; every other keeps MAX_BODY_BYTES.
  const limits = mediaBodyLimits(config);
  const multipart = multipartLimits(config);
  fastify.addHook('onRoute', (route: { url: string; bodyLimit?: number; config?: Record<string, unknown> }) => {
    const limit = limits.get(route.url);
    if (limit !== undefined) route.bodyLimit = limit;
    route.config = { ...route.config, [MULTIPART_LIMITS]: multipart(route.url) };
  });
  // Any content type is read as JSON: clients that forget the header still get a
  // clear answer (400 on a malformed body) rather than a 415.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: config.MAX_BODY_BYTES },
    (_req: unknown, body: string, done: (e: Error | null, v?: unknown) => void) => {
      if (body === '' || body === undefined) return done(null, undefined);
      try {
        done(null, parseJson(body));
      } catch (e) {
        done(e as Error);
      }
    },
  );
  // After the removal above, which would take it too: @fastify/multipart owns
  // multipart/form-data (its parser reads nothing; the route streams the form).
  registerFastifyMultipart(fastify);
  return app;
}

const accessLogger = new Logger('Http');

let draining = false;

/** The process's Metrics, or null in an app built without MetricsModule (a test's). */
function metricsOf(app: INestApplication): Metrics | null {
  try {
    return app.get(Metrics, { strict: false });
  } catch {
    return null;
  }
}

/**
 * Shutting down: close the app with this, not app.close() alone. Answers in flight are
 * sent with `connection: close`, so no keep-alive socket holds the process open. What is
 * still open after `graceMs` (a client stalled mid-body, a check still running) is closed,
 * so the shutdown hooks run and the process exits within the grace, not whenever the
 * slowest client lets go.
 */
export async function drainAndClose(app: INestApplication, graceMs: number): Promise<void> {
  draining = true;
  const server: Server = app.getHttpServer();
  const timer = setTimeout(() => {
    new Logger('Shutdown').warn(`closing the connections still open after the grace of ${graceMs} ms (SHUTDOWN_GRACE_MS)`);
    server.closeAllConnections();
  }, graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
}

/** Requests by route pattern (never the raw path: ids would make a label per request),
 * and the access line (AccessLog): method, route, status, time, request id, and the
 * caller's tenant and key id once the auth guard has set them; never the path's ids, the
 * query, the body or the key. */
function observeRequest(
  metrics: Metrics | null,
  access: AccessLog,
  req: { method: string; principal?: { tenantId?: string; keyId?: string } },
  route: string,
  status: number,
  started: bigint | undefined,
  requestId: unknown,
): void {
  const labels = { method: req.method, route: route || 'unmatched', status: String(status) };
  const seconds = started === undefined ? undefined : Number(process.hrtime.bigint() - started) / 1e9;
  metrics?.httpRequests.inc(labels);
  if (seconds !== undefined) metrics?.httpDuration.observe(labels, seconds);
  if (!access.enabled) return;
  access.record({
    method: labels.method,
    route: labels.route,
    status,
    ms: seconds === undefined ? null : Math.round(seconds * 1e4) / 10,
    requestId: typeof requestId === 'string' ? requestId : null,
    tenant: req.principal?.tenantId ?? null,
    keyId: req.principal?.keyId ?? null,
  });
}

/** The request span's closing attributes: the route pattern (never the raw path), the
 * status, the request id and the caller's tenant; the decision id the handler set. */
function endRequestSpan(span: RequestSpan, req: { principal?: { tenantId?: string } }, route: string, status: number, requestId: unknown): void {
  span.end({
    'http.route': route || 'unmatched',
    'http.response.status_code': status,
    'cds.request_id': typeof requestId === 'string' ? requestId : undefined,
    'cds.tenant': req.principal?.tenantId,
  });
}

/** Room for the JSON around the images (text, metadata, other items). */
const ENVELOPE_BYTES = 1024 * 1024;

/**
 * Body limits of the endpoints that carry images: one inline image of MAX_IMAGE_BYTES in
 * base64 for a check and a batch (whose items are more often URLs), ten in a multimodal
 * check. Never below MAX_BODY_BYTES.
 */
export function mediaBodyLimits(config: Pick<AppConfig, 'MAX_BODY_BYTES' | 'MAX_IMAGE_BYTES'>): Map<string, number> {
  const oneImage = Math.ceil(config.MAX_IMAGE_BYTES / 3) * 4 + ENVELOPE_BYTES;
  const atLeast = (n: number) => Math.max(n, config.MAX_BODY_BYTES);
  return new Map([
    ['/v1/check', atLeast(oneImage)],
    ['/v1/batch/check', atLeast(oneImage)],
    ['/v1/batch/check/async', atLeast(oneImage)],
    ['/v1/check/multimodal', atLeast(10 * (oneImage - ENVELOPE_BYTES) + ENVELOPE_BYTES)],
  ]);
}

/**
 * Limits of the multipart endpoints (multipart.ts applies them while the form streams): a
 * video upload takes one file of VIDEO_MAX_BYTES; any other one file of MAX_BODY_BYTES.
 */
export function multipartLimits(config: Pick<AppConfig, 'MAX_BODY_BYTES' | 'VIDEO_MAX_BYTES'>): (path: string) => MultipartLimits {
  const other: MultipartLimits = { ...DEFAULT_MULTIPART_LIMITS, maxFileBytes: config.MAX_BODY_BYTES };
  const routes = new Map<string, MultipartLimits>([
    ['/v1/video/upload', { ...DEFAULT_MULTIPART_LIMITS, maxFileBytes: config.VIDEO_MAX_BYTES, fileTooLargeCode: 'VIDEO_TOO_LARGE' }],
  ]);
  return (path) => routes.get(path) ?? other;
}

/** JSON.parse that drops `__proto__` and `constructor` keys, so a body can never
 * reach an object's prototype later on (checked cheaply before paying for a reviver). */
export function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = /"(__proto__|constructor)"\s*:/.test(text) ? JSON.parse(text, dropProtoKeys) : JSON.parse(text);
  } catch (err) {
    // The reviver recurses: a body deep enough overflows the stack before any check.
    if (err instanceof RangeError) throw tooDeep();
    throw err;
  }
  assertJsonDepth(value);
  return value;
}

const tooDeep = () => new DomainError('bad_request', 'INVALID_BODY', 'Malformed request body', `the body nests deeper than ${MAX_JSON_DEPTH} levels`);

/** Deepest nesting a body may have: no endpoint needs more than a few levels, and the
 * validation walks the body recursively. */
export const MAX_JSON_DEPTH = 64;

/** 400 INVALID_BODY for a body nested deeper than MAX_JSON_DEPTH (checked without recursion). */
export function assertJsonDepth(value: unknown): void {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > MAX_JSON_DEPTH) throw tooDeep();
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
}

function dropProtoKeys(key: string, value: unknown): unknown {
  return key === '__proto__' || key === 'constructor' ? undefined : value;
}
