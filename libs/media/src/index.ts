/** Image input: parse a check's content, fetch URLs through the egress guard, sniff, decode with limits. */
export { sniffImageFormat, sniffOtherFormat, requireImageFormat, IMAGE_FORMATS, ACCEPTED_FORMATS } from './image-format';
export type { ImageFormat, OtherFormat } from './image-format';
export { parseImageInput, DEFAULT_MAX_IMAGE_BYTES } from './image-input';
export type { ImageSource } from './image-input';
export { fetchMedia } from './media-fetch';
export type { MediaFetchOptions, FetchedMedia } from './media-fetch';
export { decodeImage, renderForOcr, renderPixelsForOcr } from './image-decoder';
export { padFrame, modelFramesOf, fitInside } from './padded-frame';
export type { DecodeImageOptions, DecodedFrame, DecodedImage } from './image-decoder';
// Text in images (written in ./ocr by its owner): what the check engine and the probes use.
export { readTextInImage, probeTesseract } from './ocr/tesseract.ocr';
export type { OcrResult, ReadTextOptions, TesseractProbe } from './ocr/tesseract.ocr';
export { openOcrEngine } from './ocr/ocr-engine';
export type { OcrEngine, OcrEngineChoice, OcrEngineName, OcrRead, OcrReadOptions } from './ocr/ocr-engine';
export { REQUIRED_TESSERACT_PACKS } from './ocr/tesseract.args';
export type { OcrLanguagePlan } from './ocr/tesseract.args';
export { OcrError, OcrUnavailableError, OcrTimeoutError } from './ocr/ocr.errors';
export type { OcrErrorCode } from './ocr/ocr.errors';
// Video (./video): probe a local file, plan and extract frames with ffmpeg, cut evidence JPEGs.
export { findFfmpeg, probeFfmpegFeatures } from './video/ffmpeg-binaries';
export type { FfmpegBinaries, FfmpegFeatures } from './video/ffmpeg-binaries';
export { ACCEPTED_CONTAINERS, ACCEPTED_CODECS } from './video/video-formats';
export type { VideoContainer, VideoCodec } from './video/video-formats';
export { ffprobeArgs } from './video/ffprobe.args';
export { parseProbe } from './video/ffprobe.parser';
export type { VideoProbe } from './video/ffprobe.parser';
export { probeVideo, DEFAULT_VIDEO_MAX_PIXELS } from './video/video-probe';
export type { ProbeVideoOptions } from './video/video-probe';
export { planFrames, SEEK_MIN_INTERVAL_SECONDS } from './video/frame-plan';
export type { ExtractionMode, FramePlan, PlanFramesOptions } from './video/frame-plan';
export { DEFAULT_SCENE_THRESHOLD } from './video/ffmpeg.args';
export { extractFrames } from './video/frame-extractor';
export { frameSizeWithin } from './video/frame-size';
export type { FrameSize } from './video/ffmpeg.args';
export type { ExtractedFrame, ExtractFramesOptions } from './video/frame-extractor';
export { cutEvidenceFrame } from './video/evidence-cut';
export type { CutEvidenceOptions } from './video/evidence-cut';
