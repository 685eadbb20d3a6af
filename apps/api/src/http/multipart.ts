import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import busboy from 'busboy';
import fastifyMultipart from '@fastify/multipart';
import { DomainError } from '@cds/errors';

/**
 * The multipart seam: a controller takes `@MultipartBody() form: MultipartForm` and reads
 * `form.parts()`, on fastify (@fastify/multipart) or express (busboy on the request) alike.
 * Nothing is buffered whole: a file arrives as a stream, counted while it flows, and the
 * limits below are applied here, whichever adapter parsed the bytes.
 */
export interface MultipartField {
  kind: 'field';
  name: string;
  value: string;
}

export interface MultipartFile {
  kind: 'file';
  name: string;
  /** As the client named it ('' when it gave none); never a path to use as is. */
  filename: string;
  mimeType: string;
  /** The file's bytes. Past `maxFileBytes` it throws DomainError('too_large',
   * fileTooLargeCode); on a truncated or malformed body DomainError('bad_request', 'INVALID_BODY'). */
  stream: AsyncIterable<Uint8Array>;
}

export type MultipartPart = MultipartField | MultipartFile;

export interface MultipartForm {
  /**
   * The fields and files in the order the client sent them. One pass only; the body
   * streams, so read each file's `stream` to its end before asking for the next part
   * (a file left unread then is skipped: its remaining bytes are discarded). Leaving the
   * loop early (break, throw) discards the rest of the body. Throws a DomainError: 413
   * past a limit, 400 on a malformed body.
   */
  parts(): AsyncIterable<MultipartPart>;
}

export interface MultipartLimits {
  maxFields: number;
  /** Bytes of one field's value. */
  maxFieldBytes: number;
  maxFiles: number;
  /** Bytes of one file. */
  maxFileBytes: number;
  /** The code of the 413 past maxFileBytes (e.g. VIDEO_TOO_LARGE). */
  fileTooLargeCode: string;
}

/** What a multipart route takes unless http-adapter.ts's `multipartLimits` says otherwise. */
export const DEFAULT_MULTIPART_LIMITS: MultipartLimits = {
  maxFields: 20,
  maxFieldBytes: 64 * 1024,
  maxFiles: 1,
  maxFileBytes: 1024 * 1024,
  fileTooLargeCode: 'PAYLOAD_TOO_LARGE',
};

/** Where the adapter set-up leaves a route's limits: fastify route config, or the express request. */
export const MULTIPART_LIMITS = 'cdsMultipartLimits';

/** Field names are keys; a long one is not a form field anyone meant. */
const MAX_NAME_BYTES = 200;

/** A body abandoned part-way (a refusal, an early break) is read on and thrown away, up to
 * this many bytes, so the client receives the answer instead of a reset; past it the
 * connection is closed. The exception filter keeps the connection open for bodies of
 * declared length up to the same amount. */
const DISCARD_LIMIT_BYTES = 512 * 1024 * 1024;

/** The form of this request, for a controller. Reading a non-multipart request is a 400. */
export const MultipartBody = createParamDecorator((_: unknown, ctx: ExecutionContext): MultipartForm => {
  const http = ctx.switchToHttp();
  return multipartFormOf(http.getRequest(), http.getResponse());
});

/** The form of a fastify request (with @fastify/multipart registered) or an express one. */
export function multipartFormOf(request: any, response: any): MultipartForm {
  const isFastify = typeof request?.raw === 'object' && request.raw !== null;
  const raw: IncomingMessage = isFastify ? request.raw : request;
  if (isFastify && typeof request.isMultipart !== 'function') throw new Error('@fastify/multipart is not registered: see registerFastifyMultipart');
  const multipart = isFastify ? request.isMultipart() : isMultipartRequest(raw.headers);
  if (!multipart) {
    throw new DomainError(
      'bad_request',
      'INVALID_BODY',
      'Malformed request body',
      `expected multipart/form-data, got ${describeType(raw.headers['content-type'])}`,
    );
  }
  const limits: MultipartLimits = {
    ...DEFAULT_MULTIPART_LIMITS,
    ...((isFastify ? request.routeOptions?.config?.[MULTIPART_LIMITS] : request[MULTIPART_LIMITS]) as Partial<MultipartLimits> | undefined),
  };
  let used = false;
  return {
    parts: () => {
      if (used) throw new Error('the parts of a multipart form can be read once');
      used = true;
      return readForm(() => (isFastify ? fastifySource(request, limits) : busboySource(raw, limits)), raw, response?.raw ?? response, limits);
    },
  };
}

/** `multipart/form-data` by its media type (any parameters, any case). */
export function isMultipartRequest(headers: IncomingMessage['headers']): boolean {
  const type = headers['content-type'];
  return typeof type === 'string' && /^\s*multipart\/form-data\s*(;|$)/i.test(type);
}

/**
 * Lets @fastify/multipart own `multipart/form-data` (its parser reads nothing: the form
 * is read when a controller asks for it, so no JSON body limit applies). Register it
 * after removeAllContentTypeParsers(), which would remove it too.
 */
export function registerFastifyMultipart(fastify: any): void {
  fastify.register(fastifyMultipart, { limits: busboyLimits(DEFAULT_MULTIPART_LIMITS), throwFileSizeLimit: true });
}

/** The limits in busboy's terms. One byte over each of ours, so that a value or a file of
 * exactly the limit passes (busboy 1.x marks a file truncated on reaching its limit). */
function busboyLimits(l: MultipartLimits) {
  return {
    fields: l.maxFields,
    fieldSize: l.maxFieldBytes + 1,
    fieldNameSize: MAX_NAME_BYTES + 1,
    files: l.maxFiles,
    fileSize: l.maxFileBytes + 1,
    parts: l.maxFields + l.maxFiles,
    headerPairs: 20,
  };
}

/** One part as a parser hands it over, before our checks. */
type RawPart =
  | { kind: 'field'; name: string; value: string; truncated: boolean }
  | { kind: 'file'; name: string; filename: string; mimeType: string; stream: Readable & { truncated?: boolean } };

interface PartSource {
  /** The next part, null at the end; rejects on a malformed body or a limit. */
  next(): Promise<RawPart | null>;
  /** Stops parsing (the consumer left); the rest of the body is not wanted. */
  stop(): void;
}

async function* readForm(open: () => PartSource, raw: IncomingMessage, res: any, limits: MultipartLimits): AsyncGenerator<MultipartPart> {
  if (declaresEmptyBody(raw)) {
    throw new DomainError('bad_request', 'INVALID_BODY', 'Malformed request body', 'the multipart/form-data body is empty');
  }
  const source = open();
  let fields = 0;
  let files = 0;
  let file: { stream: Readable } | null = null;
  let settled = false;
  const leave = () => {
    if (settled) return;
    settled = true;
    abandon(source, file, raw);
  };
  // A consumer that neither finishes nor leaves its loop (it kept the iterator and
  // answered): once the answer is out, the rest of the body goes.
  res?.once?.('close', leave);
  try {
    for (;;) {
      if (file) skip(file.stream);
      file = null;
      let part: RawPart | null;
      try {
        part = await source.next();
      } catch (err) {
        throw asDomainError(err, limits);
      }
      if (part === null) {
        settled = true;
        return;
      }
      checkName(part.name);
      if (part.kind === 'field') {
        if (++fields > limits.maxFields) throw tooMany('fields', limits.maxFields);
        if (part.truncated || Buffer.byteLength(part.value) > limits.maxFieldBytes) {
          throw new DomainError('too_large', 'FIELD_TOO_LARGE', 'Form field too large', `the field "${part.name}" exceeds ${limits.maxFieldBytes} bytes`);
        }
        yield { kind: 'field', name: part.name, value: part.value };
      } else {
        file = part;
        if (++files > limits.maxFiles) throw tooMany('files', limits.maxFiles);
        yield { kind: 'file', name: part.name, filename: part.filename, mimeType: part.mimeType, stream: counted(part.stream, limits) };
      }
    }
  } finally {
    res?.removeListener?.('close', leave);
    leave();
  }
}

function declaresEmptyBody(raw: IncomingMessage): boolean {
  const length = raw.headers['content-length'];
  return length === '0' || (length === undefined && raw.headers['transfer-encoding'] === undefined);
}

/** The file's bytes, refused past the limit as soon as they cross it. */
async function* counted(stream: Readable & { truncated?: boolean }, limits: MultipartLimits): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  // Leaving early destroys the stream; an error the parser raises on it afterwards is not news.
  stream.on('error', () => {});
  try {
    for await (const chunk of stream) {
      bytes += (chunk as Buffer).length;
      if (bytes > limits.maxFileBytes || stream.truncated) throw fileTooLarge(limits);
      yield chunk as Buffer;
    }
  } catch (err) {
    throw asDomainError(err, limits);
  }
  if (stream.truncated) throw fileTooLarge(limits);
}

function skip(stream: Readable): void {
  stream.on('error', () => {});
  if (!stream.readableEnded) stream.resume();
}

/** The consumer left before the end: stop parsing and throw away the rest of the body. */
function abandon(source: PartSource, file: { stream: Readable } | null, raw: IncomingMessage): void {
  if (file) skip(file.stream);
  source.stop();
  if (raw.readableEnded || raw.destroyed) return;
  raw.unpipe();
  let discarded = 0;
  raw.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_LIMIT_BYTES) raw.destroy();
  });
  raw.on('error', () => {});
  raw.resume();
}

function fastifySource(request: any, limits: MultipartLimits): PartSource {
  const it: AsyncIterator<any> = request.parts({ limits: busboyLimits(limits) })[Symbol.asyncIterator]();
  return {
    async next() {
      const r = await it.next();
      if (r.done) return null;
      const p = r.value;
      if (p.type === 'file') {
        return { kind: 'file', name: String(p.fieldname ?? ''), filename: String(p.filename ?? ''), mimeType: String(p.mimetype ?? ''), stream: p.file };
      }
      // The plugin parses a field sent as application/json; the seam hands over text.
      const value = typeof p.value === 'string' ? p.value : JSON.stringify(p.value);
      return { kind: 'field', name: String(p.fieldname ?? ''), value, truncated: !!p.valueTruncated || !!p.fieldnameTruncated };
    },
    stop() {
      // The plugin's busboy is unpiped by abandon(); its iterator is left to be collected.
    },
  };
}

/** busboy on the request itself (express: the JSON parser skips multipart requests). */
function busboySource(req: IncomingMessage, limits: MultipartLimits): PartSource {
  const queue: Array<RawPart | Error | null> = [];
  let waiting: ((v: RawPart | Error | null) => void) | null = null;
  let failed: Error | null = null;
  const push = (v: RawPart | Error | null) => {
    if (waiting) {
      const w = waiting;
      waiting = null;
      w(v);
    } else queue.push(v);
  };
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers: req.headers, limits: busboyLimits(limits), defParamCharset: 'utf8' });
  } catch (err) {
    failed = err as Error;
    return { next: () => Promise.reject(failed), stop: () => {} };
  }
  bb.on('field', (name, value, info) => push({ kind: 'field', name: name ?? '', value, truncated: info.valueTruncated || info.nameTruncated }));
  bb.on('file', (name, stream, info) => push({ kind: 'file', name: name ?? '', filename: info.filename ?? '', mimeType: info.mimeType, stream }));
  bb.on('fieldsLimit', () => push(tooMany('fields', limits.maxFields)));
  bb.on('filesLimit', () => push(tooMany('files', limits.maxFiles)));
  bb.on('partsLimit', () => push(tooMany('parts', limits.maxFields + limits.maxFiles)));
  bb.on('error', (err: Error) => push(err));
  bb.on('close', () => push(null));
  const onClose = () => {
    if (!req.complete) bb.destroy(new Error('the request was closed before the form was complete'));
  };
  req.once('close', onClose);
  req.pipe(bb);
  return {
    next() {
      if (failed) return Promise.reject(failed);
      const v = queue.length > 0 ? queue.shift()! : undefined;
      const settle = (x: RawPart | Error | null) => {
        if (x instanceof Error) {
          failed = x;
          throw x;
        }
        return x;
      };
      if (v !== undefined) return Promise.resolve(v).then(settle);
      return new Promise<RawPart | Error | null>((resolve) => (waiting = resolve)).then(settle);
    },
    stop() {
      req.removeListener('close', onClose);
      req.unpipe(bb);
      bb.on('error', () => {});
      bb.destroy();
    },
  };
}

function checkName(name: string): void {
  // The parsers disagree on these (@fastify/multipart refuses them); refuse them on both.
  if (name in Object.prototype || Buffer.byteLength(name) > MAX_NAME_BYTES) {
    throw new DomainError('bad_request', 'INVALID_BODY', 'Malformed request body', `a form field may not be named "${name.slice(0, 40)}"`);
  }
}

function fileTooLarge(limits: MultipartLimits): DomainError {
  return new DomainError('too_large', limits.fileTooLargeCode, 'Uploaded file too large', `the file exceeds the limit of ${limits.maxFileBytes} bytes`);
}

function tooMany(what: 'fields' | 'files' | 'parts', max: number): DomainError {
  return new DomainError('too_large', `TOO_MANY_${what.toUpperCase()}`, `Too many form ${what}`, `a form takes at most ${max} ${what}`);
}

/** Parser failures in the spec's terms: a limit is a 413, anything else a malformed body. */
function asDomainError(err: unknown, limits: MultipartLimits): DomainError {
  if (err instanceof DomainError) return err;
  switch ((err as { code?: string })?.code) {
    case 'FST_FIELDS_LIMIT':
      return tooMany('fields', limits.maxFields);
    case 'FST_FILES_LIMIT':
      return tooMany('files', limits.maxFiles);
    case 'FST_PARTS_LIMIT':
      return tooMany('parts', limits.maxFields + limits.maxFiles);
    case 'FST_REQ_FILE_TOO_LARGE':
      return fileTooLarge(limits);
    default:
      break; // any other parser failure is a malformed body
  }
  const message = String((err as Error)?.message ?? err).slice(0, 200);
  return new DomainError('bad_request', 'INVALID_BODY', 'Malformed request body', `the multipart/form-data body cannot be read: ${message}`);
}

function describeType(type: string | undefined): string {
  return type ? JSON.stringify(type.slice(0, 100)) : 'no content-type';
}
