export { BLOB_STORE, MEDIA_REF_PREFIX, mediaRef, parseMediaRef, isSha256 } from './blob-store.port';
export type { BlobStore, StoredBlob } from './blob-store.port';
export type { BlobSource, PutStreamOptions } from './blob-store.port';
export { FsBlobStore } from './fs-blob-store.adapter';
export { BlobStoreModule } from './blob-store.module';
