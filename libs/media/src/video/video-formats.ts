/**
 * What the video path accepts, by the names ffprobe and ffmpeg use. Anything else is
 * UNSUPPORTED_VIDEO_FORMAT, and ffmpeg is told the same lists (-format_whitelist,
 * -codec_whitelist) so a file cannot reach another demuxer or decoder at decode time.
 *
 * Kept to what uploads are made of and Debian's ffmpeg 5.1 decodes natively (AV1 through
 * libdav1d): fewer demuxers and decoders, less fuzz-exposed code reachable from a hostile
 * file. Left out on purpose: playlists and references to other files (HLS, DASH, concat,
 * IMF: they open further inputs), image demuxers (png_pipe, image2...: an image is checked
 * as an image), Ogg/Theora, FLV, WMV/ASF, H.263, ProRes and other rare formats.
 */

/** Accepted containers: our short name → ffprobe's `format_name` for that demuxer. */
export const ACCEPTED_CONTAINERS = {
  mp4: 'mov,mp4,m4a,3gp,3g2,mj2', // MP4, MOV, 3GP: one demuxer
  matroska: 'matroska,webm', // MKV and WebM: one demuxer
  avi: 'avi',
  mpegts: 'mpegts', // .ts / .m2ts recordings
} as const;

export type VideoContainer = keyof typeof ACCEPTED_CONTAINERS;

/** Accepted video codecs, by ffprobe's `codec_name`, with the ffmpeg decoders that may read them. */
export const ACCEPTED_CODECS = {
  h264: ['h264'],
  hevc: ['hevc'],
  vp8: ['vp8', 'libvpx'],
  vp9: ['vp9', 'libvpx-vp9'],
  av1: ['libdav1d', 'libaom-av1', 'av1'],
  mpeg4: ['mpeg4'], // MPEG-4 Part 2 (Xvid/DivX in AVI, old phones)
  mpeg2video: ['mpeg2video'], // broadcast recordings in MPEG-TS
  mjpeg: ['mjpeg'], // cameras and webcams (AVI, MOV)
} as const;

export type VideoCodec = keyof typeof ACCEPTED_CODECS;

/** For -format_whitelist: ffmpeg matches any comma-separated part of a demuxer's name. */
export const DEMUXER_WHITELIST = Object.values(ACCEPTED_CONTAINERS)
  .map((name) => name.split(',')[0])
  .join(',');

/** For -codec_whitelist (decoder names; the audio decoders are never opened: -an). */
export const DECODER_WHITELIST = Object.values(ACCEPTED_CODECS).flat().join(',');

/** "MP4/MOV, Matroska/WebM, AVI, MPEG-TS", for error details. */
export const ACCEPTED_CONTAINERS_TEXT = 'MP4/MOV/3GP, Matroska/WebM, AVI, MPEG-TS';
export const ACCEPTED_CODECS_TEXT = Object.keys(ACCEPTED_CODECS).join(', ');

/** Our short name of an ffprobe `format_name`, or null when it is not accepted. */
export function acceptedContainer(formatName: string): VideoContainer | null {
  for (const [short, name] of Object.entries(ACCEPTED_CONTAINERS) as [VideoContainer, string][]) if (name === formatName) return short;
  return null;
}

export function isAcceptedCodec(codecName: string): codecName is VideoCodec {
  return Object.prototype.hasOwnProperty.call(ACCEPTED_CODECS, codecName);
}

/**
 * MPEG-TS by its sync bytes: 0x47 every 188 bytes (or every 192 in M2TS, after a 4-byte
 * timestamp). Such a file has no index, so its seeks are done with a preroll (ffmpeg.args.ts).
 */
export function looksLikeTransportStream(head: Buffer): boolean {
  const syncedAt = (offset: number, packet: number) => head.length >= offset + 2 * packet + 1 && [0, 1, 2].every((i) => head[offset + i * packet] === 0x47);
  return syncedAt(0, 188) || syncedAt(4, 192);
}
