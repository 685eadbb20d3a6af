/**
 * Untrusted image bytes to what the models read: a few RGB frames at the model's size
 * and a greyscale picture for OCR. Sniffed first (only the six accepted formats reach
 * libvips), sized from the header before any pixel is decoded, each selected page
 * decoded on its own, every sharp failure mapped to a 422 with a stable code.
 *
 * Choices: alpha is flattened onto WHITE (transparent stickers and logos are drawn for
 * light pages; on black their dark lines would vanish). Frames are resized with
 * fit 'fill' (stretched, not cropped): 'cover' would cut off the edges of tall or wide
 * images, and what is cut off is never scored; the nsfw model is trained on squashed
 * inputs anyway (nsfwjs resizes without keeping the aspect ratio).
 */
import sharp, { Sharp } from 'sharp';
import { DomainError } from '@cds/errors';
import { ocrLongestSide, sequentialDecodeWork, spreadFrames } from './decode-plan';
import { ACCEPTED_FORMATS, ImageFormat, requireImageFormat } from './image-format';
import { imageTooLarge, invalidImage, unsupportedImageFormat } from './media-errors';
import { modelFramesOf, stretchFrame } from './padded-frame';

// Each request decodes different bytes: libvips' operation cache would only hold memory.
sharp.cache(false);

export interface DecodeImageOptions {
  /** Largest width × height of one frame (or page); past it IMAGE_TOO_LARGE, before decoding. */
  maxPixels: number;
  /** Frames decoded from an animation, spread over it (first and last included). */
  maxFrames: number;
  /** Side of the square RGB frames handed to the model. */
  modelSize: number;
  /** Longest side of the OCR picture. */
  ocrMaxSide: number;
  /** Make `ocrImage` too (default true); false when OCR is off or done apart (renderForOcr). */
  withOcrImage?: boolean;
  /** Side of the padded frames (the image safety model's input, see padded-frame.ts); none when absent. */
  paddedSize?: number;
}

export interface DecodedFrame {
  /** Position of the frame in the file, from 0. */
  index: number;
  /** modelSize × modelSize × 3 bytes, RGB, rows top to bottom; alpha flattened onto white.
   * With `paddedSize`, stretched from the page decoded whole (ICC profile ignored, as for the
   * padded frame: one decode serves both); without it, from a shrink-on-load decode with
   * the ICC profile applied (cheaper when only this frame is needed). */
  rgb: Buffer;
  /** paddedSize² × 3 bytes, RGB: the picture fitted inside the square over a blurred copy
   * of itself (padded-frame.ts); only when `paddedSize` is given. */
  padded?: Buffer;
}

export interface DecodedImage {
  format: ImageFormat;
  /** Of the first frame (every frame of a GIF or WebP), as displayed: after EXIF orientation. */
  width: number;
  height: number;
  /** Frames (or TIFF pages) in the file: 1 unless animated or multi-page. */
  frameCount: number;
  /** At most maxFrames, spread evenly over the animation (first and last included). */
  frames: DecodedFrame[];
  /** First frame as a PNG for OCR: EXIF-rotated, greyscale, alpha on white; see ocrLongestSide.
   * Null when `withOcrImage` is false. */
  ocrImage: Buffer | null;
}

interface Layout {
  width: number;
  height: number;
  frameCount: number;
}

const WHITE = { r: 255, g: 255, b: 255 };
const NAMES: Record<ImageFormat, string> = { jpeg: 'JPEG', png: 'PNG', webp: 'WebP', gif: 'GIF', avif: 'AVIF', tiff: 'TIFF' };
/** The name libvips gives each format (AVIF is read by its HEIF loader). */
const LOADERS: Record<ImageFormat, string> = { jpeg: 'jpeg', png: 'png', webp: 'webp', gif: 'gif', avif: 'heif', tiff: 'tiff' };
/** Formats with several frames or pages, each selected with {page, pages: 1}. */
const PAGED: ReadonlySet<ImageFormat> = new Set(['gif', 'webp', 'tiff']);
/** Of those, the ones where page N is reached only by decoding pages 0..N-1. */
const SEQUENTIAL: ReadonlySet<ImageFormat> = new Set(['gif', 'webp']);

export async function decodeImage(bytes: Buffer, o: DecodeImageOptions): Promise<DecodedImage> {
  const format = requireImageFormat(bytes);
  const layout = await readLayout(bytes, format, o);
  const indices = spreadFrames(layout.frameCount, o.maxFrames);
  if (SEQUENTIAL.has(format)) checkAnimationWork(layout, indices, o);
  // One page at a time: memory stays at one decoded frame, however many are asked for.
  const frames: DecodedFrame[] = [];
  for (const index of indices) {
    if (o.paddedSize === undefined) frames.push({ index, rgb: await modelFrame(bytes, format, index, o) });
    else frames.push({ index, ...(await bothFrames(bytes, format, index, o, o.paddedSize)) });
  }
  const ocrImage = o.withOcrImage === false ? null : await ocrPicture(bytes, format, layout, o);
  return { format, width: layout.width, height: layout.height, frameCount: layout.frameCount, frames, ocrImage };
}

/**
 * The picture Tesseract reads, made on its own so a caller can run it beside the model
 * (it decodes the whole first frame and writes a PNG: several times the model frame's
 * cost on a photo). Same limits and errors as decodeImage.
 */
export async function renderForOcr(bytes: Buffer, o: Pick<DecodeImageOptions, 'maxPixels' | 'ocrMaxSide'>): Promise<Buffer> {
  const format = requireImageFormat(bytes);
  const options = { ...o, maxFrames: 1, modelSize: 1 };
  return ocrPicture(bytes, format, await readLayout(bytes, format, options), options);
}

/** The picture Tesseract reads, of raw 8-bit RGB pixels (a video frame): as renderForOcr
 * makes it of a file (longest side ocrLongestSide, one grey channel, PNG). */
export async function renderPixelsForOcr(rgb: Buffer, width: number, height: number, ocrMaxSide: number): Promise<Buffer> {
  if (rgb.length !== width * height * 3) throw new RangeError(`${rgb.length} bytes are not ${width}×${height} RGB`);
  const side = ocrLongestSide(width, height, ocrMaxSide);
  return sharp(rgb, { raw: { width, height, channels: 3 } })
    .resize(side, side, { fit: 'inside' })
    .toColourspace('b-w')
    .png({ compressionLevel: 1 })
    .toBuffer();
}

async function ocrPicture(bytes: Buffer, format: ImageFormat, layout: Layout, o: DecodeImageOptions): Promise<Buffer> {
  const side = ocrLongestSide(layout.width, layout.height, o.ocrMaxSide);
  return decoding(format, o, () =>
    load(bytes, format, 0, o)
      .rotate()
      .flatten({ background: WHITE })
      .resize(side, side, { fit: 'inside' })
      .toColourspace('b-w') // one grey channel (greyscale() alone still writes three)
      // Tesseract reads it at once: a fast, light compression costs a third of level 3 here.
      .png({ compressionLevel: 1 })
      .toBuffer(),
  );
}

/** Dimensions and frame count from the header; refuses an oversized frame before any pixel is decoded. */
async function readLayout(bytes: Buffer, format: ImageFormat, o: DecodeImageOptions): Promise<Layout> {
  // The header only: the pixel limit is checked here, with a message naming the dimensions.
  const meta = await decoding(format, o, () => sharp(bytes, { limitInputPixels: false, failOn: 'error' }).metadata());
  if (format === 'avif' && meta.compression === 'hevc') throw unsupportedImageFormat(`a HEIC image is not accepted; accepted formats: ${ACCEPTED_FORMATS}`);
  if (meta.format !== LOADERS[format]) throw invalidImage(`the bytes start like ${NAMES[format]} but do not decode as ${NAMES[format]}`);
  const width = meta.width;
  // Without `animated`, height is that of one page.
  const height = meta.pageHeight ?? meta.height;
  if (!(width > 0 && height > 0)) throw invalidImage(`the ${NAMES[format]} image has no pixels (${width}×${height})`);
  const frameCount = PAGED.has(format) ? Math.max(1, meta.pages ?? 1) : 1;
  if (width * height > o.maxPixels) {
    const frame = frameCount > 1 ? ' per frame' : '';
    throw imageTooLarge(`the image is ${width}×${height} = ${width * height} pixels${frame}; the limit is ${o.maxPixels} pixels`);
  }
  // EXIF orientations 5 to 8 turn the picture a quarter: width and height swap.
  const turned = (meta.orientation ?? 1) >= 5;
  return { width: turned ? height : width, height: turned ? width : height, frameCount };
}

/**
 * Refuses an animation whose sampled frames cost more to reach than decoding maxFrames
 * still images of the largest allowed size: a GIF or WebP frame is reached only by
 * decoding every frame before it, so frame count × frame size is the real bill.
 */
function checkAnimationWork(layout: Layout, indices: number[], o: DecodeImageOptions): void {
  const framePixels = layout.width * layout.height;
  const work = sequentialDecodeWork(indices, framePixels);
  const budget = o.maxPixels * o.maxFrames;
  if (work > budget) {
    throw imageTooLarge(
      `the animation has ${layout.frameCount} frames of ${layout.width}×${layout.height}; reaching the ${indices.length} frames scored means ` +
        `decoding ${work} pixels, past the limit of ${budget} (maxPixels × maxFrames)`,
    );
  }
}

async function modelFrame(bytes: Buffer, format: ImageFormat, index: number, o: DecodeImageOptions): Promise<Buffer> {
  const { data, info } = await decoding(format, o, () =>
    load(bytes, format, index, o)
      .rotate()
      .flatten({ background: WHITE })
      .resize(o.modelSize, o.modelSize, { fit: 'fill' })
      .toColourspace('srgb') // greyscale, CMYK and 16-bit inputs all become 8-bit RGB
      .removeAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true }),
  );
  if (info.channels !== 3 || data.length !== o.modelSize * o.modelSize * 3) {
    throw new Error(`decoded frame has ${info.channels} channels and ${data.length} bytes; expected RGB ${o.modelSize}×${o.modelSize}`);
  }
  return data;
}

/**
 * Both models' frames of one page, from one decode of the whole page (no shrink-on-load,
 * which would change the pixels): oriented, alpha on white, 8-bit sRGB with the embedded
 * ICC profile ignored, as the image safety model's own package prepares it; then
 * modelFramesOf (the stretched frame, and the padded one over its blur). Holds the page's
 * pixels in memory once (3 bytes a pixel).
 */
async function bothFrames(bytes: Buffer, format: ImageFormat, index: number, o: DecodeImageOptions, size: number): Promise<{ rgb: Buffer; padded: Buffer }> {
  const { data, info } = await decoding(format, o, () =>
    load(bytes, format, index, o, { ignoreIcc: true })
      .rotate()
      .flatten({ background: WHITE })
      .toColourspace('srgb')
      .removeAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true }),
  );
  if (info.channels !== 3) throw new Error(`decoded page has ${info.channels} channels; expected RGB`);
  const frames = await modelFramesOf(data, info.width, info.height, size);
  if (o.modelSize === size) return frames;
  return { rgb: await stretchFrame(data, info.width, info.height, o.modelSize, o.modelSize), padded: frames.padded };
}

function load(bytes: Buffer, format: ImageFormat, page: number, o: DecodeImageOptions, extra: { ignoreIcc?: boolean } = {}): Sharp {
  // failOn 'error' (which includes 'truncated'): a JPEG cut short is INVALID_IMAGE, not half grey.
  // limitInputPixels guards each page again, TIFF pages being allowed different sizes.
  return sharp(bytes, { limitInputPixels: o.maxPixels, failOn: 'error', ...extra, ...(PAGED.has(format) ? { page, pages: 1 } : {}) });
}

/** Runs a sharp job; whatever libvips throws becomes IMAGE_TOO_LARGE or INVALID_IMAGE. */
async function decoding<T>(format: ImageFormat, o: DecodeImageOptions, job: () => Promise<T>): Promise<T> {
  try {
    return await job();
  } catch (err) {
    if (err instanceof DomainError) throw err;
    const message = (err instanceof Error ? err.message : String(err)).split('\n')[0].slice(0, 200);
    if (/pixel limit/i.test(message)) throw imageTooLarge(`a page of the ${NAMES[format]} image is larger than the limit of ${o.maxPixels} pixels`);
    throw invalidImage(`the ${NAMES[format]} image is corrupt or truncated (${message})`);
  }
}
