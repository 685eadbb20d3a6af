/** The video path's failures: 422s with stable codes, plus a 503 when there is no ffmpeg at all. */
import { DomainError, invalid } from '@cds/errors';

/** Not a readable video: empty, random bytes, truncated, no video stream, corrupt. */
export const invalidVideo = (details: string): DomainError => invalid('INVALID_VIDEO', 'The video could not be read', details);

/** A container or codec outside ACCEPTED_CONTAINERS / ACCEPTED_CODECS (an image renamed .mp4 included). */
export const unsupportedVideoFormat = (details: string): DomainError => invalid('UNSUPPORTED_VIDEO_FORMAT', 'The video format is not supported', details);

/** A frame larger than maxPixels (width × height), refused before it is decoded. */
export const videoTooLarge = (details: string): DomainError => invalid('VIDEO_TOO_LARGE', 'The video is too large', details);

/** ffmpeg or ffprobe failed, was killed at its deadline, or gave output it should not have. */
export const videoProcessingFailed = (details: string): DomainError => invalid('VIDEO_PROCESSING_FAILED', 'The video could not be processed', details);

/** No usable ffmpeg/ffprobe on this machine: the operator's problem, retryable once fixed. */
export const ffmpegUnavailable = (details: string): DomainError =>
  new DomainError('unavailable', 'FFMPEG_UNAVAILABLE', 'Video processing is not available', details);
