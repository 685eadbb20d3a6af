/** Content-addressed media of a tenant (images a decision scored, later video frames). */
export const BLOB_STORE = Symbol('BLOB_STORE');

/** How a stored decision names an inline image: `media:sha256:<64 hex>`. */
export const MEDIA_REF_PREFIX = 'media:sha256:';

export interface StoredBlob {
  sha256: string;
  ref: string;
}

export interface BlobStore {
  /** Stores the bytes durably (on disk before it answers); storing the same bytes again
   * renews their retention. */
  put(tenantId: string, bytes: Buffer): Promise<StoredBlob>;
  /** The bytes, or null when unknown to this tenant or past retention. */
  get(tenantId: string, sha256: string): Promise<Buffer | null>;
  /** Deletes what was last stored before `cutoff`; answers how many blobs went. */
  sweep(cutoff: Date): Promise<number>;
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
