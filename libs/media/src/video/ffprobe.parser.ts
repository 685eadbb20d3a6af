/**
 * ffprobe's JSON (-show_format -show_streams) to the facts the video path needs, refusing
 * what it does not accept. Pure: tested with canned JSON.
 */
import { invalidVideo, unsupportedVideoFormat, videoTooLarge } from './video-errors';
import { ACCEPTED_CODECS_TEXT, ACCEPTED_CONTAINERS_TEXT, acceptedContainer, isAcceptedCodec, VideoCodec, VideoContainer } from './video-formats';

export interface VideoProbe {
  /** Our name of the container (see ACCEPTED_CONTAINERS): mp4 covers MOV and 3GP, matroska covers WebM. */
  container: VideoContainer;
  /** ffprobe's codec name of the first video stream. */
  codec: VideoCodec;
  /** As displayed: a phone video recorded upright (rotation ±90°) has its sides swapped. */
  width: number;
  height: number;
  /** Of the video stream when the file says, else of the whole file. */
  durationSeconds: number;
  /** Average frame rate; 0 when the file does not say. */
  fps: number;
  /** Frames of the video stream when the file declares it (MP4 does, WebM/MKV rarely). */
  frameCount: number | null;
  hasAudio: boolean;
}

export interface ParseProbeOptions {
  /** Largest width × height; past it VIDEO_TOO_LARGE. */
  maxPixels?: number;
  /** The duration measured from the packets (see lacksDuration), for a file that does not declare one. */
  measuredDurationSeconds?: number;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

export function parseProbe(json: unknown, o: ParseProbeOptions = {}): VideoProbe {
  if (!isObject(json) || !isObject(json.format) || !Array.isArray(json.streams)) throw invalidVideo('the file is not a video ffprobe can describe');
  const streams = json.streams.filter(isObject);
  const formatName = text(json.format.format_name) ?? '';
  const container = acceptedContainer(formatName);
  if (!container) throw unsupportedVideoFormat(`the container is ${formatName || 'unknown'}; accepted: ${ACCEPTED_CONTAINERS_TEXT}`);

  // Cover art and thumbnails are video streams to ffprobe, and pictures to everyone else.
  const video = streams.find((s) => s.codec_type === 'video' && !flag(s, 'attached_pic') && !flag(s, 'timed_thumbnails'));
  const hasAudio = streams.some((s) => s.codec_type === 'audio');
  if (!video) throw invalidVideo(hasAudio ? 'the file has no video stream (audio only)' : 'the file has no video stream');
  const codecName = text(video.codec_name) ?? '';
  if (!isAcceptedCodec(codecName)) throw unsupportedVideoFormat(`the video codec is ${codecName || 'unknown'}; accepted: ${ACCEPTED_CODECS_TEXT}`);

  const width = positiveInt(video.width);
  const height = positiveInt(video.height);
  if (!width || !height) throw invalidVideo(`the video stream has no frame size (${text(video.width) ?? '?'}×${text(video.height) ?? '?'})`);
  if (o.maxPixels !== undefined && width * height > o.maxPixels) throw videoTooLarge(tooLargeDetails(width, height, o.maxPixels));

  const durationSeconds = declaredDuration(video, json.format) ?? positive(o.measuredDurationSeconds);
  if (durationSeconds === undefined) throw invalidVideo('the file does not say how long the video lasts');

  const turned = Math.abs(rotation(video)) % 180 === 90;
  return {
    container,
    codec: codecName,
    width: turned ? height : width,
    height: turned ? width : height,
    durationSeconds,
    fps: rate(video.avg_frame_rate) ?? rate(video.r_frame_rate) ?? 0,
    frameCount: positiveInt(video.nb_frames) ?? positiveInt(tag(video, 'NUMBER_OF_FRAMES')) ?? null,
    hasAudio,
  };
}

/** A probe with a video stream but no duration anywhere: worth measuring from the packets. */
export function lacksDuration(json: unknown): boolean {
  if (!isObject(json) || !isObject(json.format) || !Array.isArray(json.streams)) return false;
  const video = json.streams.filter(isObject).find((s) => s.codec_type === 'video' && !flag(s, 'attached_pic') && !flag(s, 'timed_thumbnails'));
  return !!video && declaredDuration(video, json.format) === undefined;
}

/** From `pts_time,duration_time` lines: last end minus first start; undefined when there are none. */
export function packetSpan(csv: string): number | undefined {
  let first = Infinity;
  let end = -Infinity;
  for (const line of csv.split('\n')) {
    const [pts, duration] = line.trim().split(',');
    const start = Number(pts);
    if (!pts || !Number.isFinite(start)) continue;
    first = Math.min(first, start);
    const length = Number(duration);
    end = Math.max(end, start + (Number.isFinite(length) && length > 0 ? length : 0));
  }
  return end > first ? Number((end - first).toFixed(6)) : undefined;
}

function declaredDuration(video: Json, format: Json): number | undefined {
  return positive(video.duration) ?? tagDuration(video) ?? positive(format.duration);
}

export function tooLargeDetails(width: number, height: number, maxPixels: number): string {
  return `the video is ${width}×${height} = ${width * height} pixels per frame; the limit is ${maxPixels} pixels`;
}

function flag(stream: Json, name: string): boolean {
  return isObject(stream.disposition) && stream.disposition[name] === 1;
}

function positive(v: unknown): number | undefined {
  const n = Number(text(v));
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

function positiveInt(v: unknown): number | undefined {
  const n = positive(v);
  return n !== undefined && Number.isInteger(n) ? n : undefined;
}

/** "30000/1001" → 29.97; "0/0" → undefined. */
function rate(v: unknown): number | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(text(v) ?? '');
  if (!m || Number(m[2]) === 0) return undefined;
  const fps = Number(m[1]) / Number(m[2]);
  return fps > 0 ? Number(fps.toFixed(3)) : undefined;
}

/** A stream tag, Matroska's language-suffixed names included ("NUMBER_OF_FRAMES-eng"). */
function tag(stream: Json, name: string): string | undefined {
  if (!isObject(stream.tags)) return undefined;
  for (const [key, value] of Object.entries(stream.tags)) if (key === name || key.startsWith(`${name}-`)) return text(value);
  return undefined;
}

/** Matroska gives the stream's duration only as a tag: "00:00:06.003000000". */
function tagDuration(stream: Json): number | undefined {
  const m = /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(tag(stream, 'DURATION') ?? '');
  if (!m) return undefined;
  return positive(Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]));
}

/** Degrees the player turns the picture: the display matrix (ffprobe 5+) or the old rotate tag. */
function rotation(stream: Json): number {
  const sides = Array.isArray(stream.side_data_list) ? stream.side_data_list.filter(isObject) : [];
  for (const side of sides) {
    const r = Number(side.rotation);
    if (Number.isFinite(r)) return Math.round(r);
  }
  const r = Number(tag(stream, 'rotate'));
  return Number.isFinite(r) ? Math.round(r) : 0;
}
