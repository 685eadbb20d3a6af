/** Content-addressed media of a tenant (images a decision scored, later video frames). */
export const BLOB_STORE = Symbol('BLOB_STORE');

/** How a stored decision names an inline image: `media:sha256:<64 hex>`. */
export const MEDIA_REF_PREFIX = 'media:sha256:';

export interface StoredBlob {
  sha256: string;
  ref: string;
}

/** Bytes arriving over time: an upload's file part, a download, a Node stream. */
export type BlobSource = AsyncIterable<Uint8Array> | NodeJS.ReadableStream;

export interface PutStreamOptions {
  /** Past this many bytes the store stops reading and refuses (413). */
  maxBytes: number;
  /** The code of that refusal; `VIDEO_TOO_LARGE` unless given. */
  tooLargeCode?: string;
}

export interface BlobStore {
  /** Stores the bytes durably (on disk before it answers); storing the same bytes again
   * renews their retention. */
  put(tenantId: string, bytes: Buffer): Promise<StoredBlob>;
  /** Streams into the store without holding the whole body in memory: hashed while written
   * to a temporary file, fsync'd, renamed to its sha256 (storing the same bytes again renews
   * their retention). Past `maxBytes` it stops reading, deletes the temporary file and
   * rejects with DomainError('too_large', o.tooLargeCode ?? 'VIDEO_TOO_LARGE'); an error of
   * the source is passed on as it is, the temporary file deleted too. */
  putStream(tenantId: string, source: BlobSource, o: PutStreamOptions): Promise<StoredBlob & { bytes: number }>;
  /** The bytes, or null when unknown to this tenant or past retention. */
  get(tenantId: string, sha256: string): Promise<Buffer | null>;
  /** The path of a stored blob on disk (ffmpeg reads files), or null when unknown to this
   * tenant or past retention. */
  pathOf(tenantId: string, sha256: string): Promise<string | null>;
  /** Deletes what was last stored before `cutoff`; answers how many blobs went. */
  sweep(cutoff: Date): Promise<number>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The oldest last-store time a blob kept for `days` may have at `now`: what was last
 * stored before it is past retention (refused by get and pathOf, deleted by sweep). */
export function retentionCutoff(days: number, now = Date.now()): Date {
  return new Date(now - days * DAY_MS);
}

export function mediaRef(sha256: string): string {
  return `${MEDIA_REF_PREFIX}${sha256}`;
}

/** The sha256 of a `media:sha256:<hex>` reference, or null when it is not one. */
export function parseMediaRef(ref: string): string | null {
  if (!ref.startsWith(MEDIA_REF_PREFIX)) return null;
  const hex = ref.slice(MEDIA_REF_PREFIX.length);
  return isSha256(hex) ? hex : null;
}

export function isSha256(hex: string): boolean {
  return /^[0-9a-f]{64}$/.test(hex);
}
