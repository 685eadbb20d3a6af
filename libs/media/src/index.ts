/** Image input: parse a check's content, fetch URLs through the egress guard, sniff, decode with limits. */
export { sniffImageFormat, sniffOtherFormat, requireImageFormat, IMAGE_FORMATS, ACCEPTED_FORMATS } from './image-format';
export type { ImageFormat, OtherFormat } from './image-format';
export { parseImageInput, DEFAULT_MAX_IMAGE_BYTES } from './image-input';
export type { ImageSource } from './image-input';
export { fetchMedia } from './media-fetch';
export type { MediaFetchOptions, FetchedMedia } from './media-fetch';
export { decodeImage, renderForOcr } from './image-decoder';
export type { DecodeImageOptions, DecodedFrame, DecodedImage } from './image-decoder';
// Text in images (written in ./ocr by its owner): what the check engine and the probes use.
export { readTextInImage, probeTesseract } from './ocr/tesseract.ocr';
export type { OcrResult, ReadTextOptions, TesseractProbe } from './ocr/tesseract.ocr';
export { OcrError, OcrUnavailableError, OcrTimeoutError } from './ocr/ocr.errors';
export type { OcrErrorCode } from './ocr/ocr.errors';
