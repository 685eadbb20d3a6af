/** The media lib's failures: 422s with stable codes; `details` says what was wrong and the limit. */
import { DomainError, invalid } from '@cds/errors';

export const invalidImage = (details: string): DomainError => invalid('INVALID_IMAGE', 'The image could not be read', details);

export const unsupportedImageFormat = (details: string): DomainError => invalid('UNSUPPORTED_IMAGE_FORMAT', 'The image format is not supported', details);

export const imageTooLarge = (details: string): DomainError => invalid('IMAGE_TOO_LARGE', 'The image is too large', details);

export const mediaFetchFailed = (details: string): DomainError => invalid('MEDIA_FETCH_FAILED', 'The media URL could not be fetched', details);
