/**
 * Which frames of a video are scored, decided from its duration alone. Pure.
 *
 * Interval mode: the frames shown at 0, interval, 2·interval... before the end. When that
 * is more than maxFrames, the interval widens to duration / maxFrames, so the frames still
 * cover the whole video: cutting after the first maxFrames would leave its end unseen,
 * and the end is where an uploader would put what they want unseen.
 *
 * Scenes mode: the first frame and each cut (see DEFAULT_SCENE_THRESHOLD), chosen by
 * ffmpeg while decoding; `interval` is then the least time between two frames kept,
 * widened the same way, so a strobe of cuts at the start cannot spend maxFrames there.
 *
 * Method: 'sequential' is one ffmpeg run decoding through the file (reference frames only)
 * and keeping the frames due; 'seek' is one run per frame, started at the keyframe before
 * it, a few in parallel. Seeking pays off when frames are far apart: at an interval of
 * SEEK_MIN_INTERVAL_SECONDS or more (measured in README.md). Scenes mode must see every
 * frame: always sequential.
 */

export type ExtractionMode = 'interval' | 'scenes';

export interface FramePlan {
  mode: ExtractionMode;
  /** Seconds between frames (interval mode), or least seconds between two frames (scenes mode); widened when needed. */
  interval: number;
  maxFrames: number;
  /** Interval mode: exactly timestamps.length. Scenes mode: an upper bound (first frame plus a cut per interval), at most maxFrames. */
  estimatedFrames: number;
  /** Interval mode: the time of each frame, in seconds from the start. Scenes mode: [] (ffmpeg decides). */
  timestamps: number[];
  method: 'sequential' | 'seek';
}

/** From this interval on, frames are cut one seek each instead of decoding the whole file. */
export const SEEK_MIN_INTERVAL_SECONDS = 10;

export interface PlanFramesOptions {
  durationSeconds: number;
  /** Seconds between frames the caller asks for. */
  frameInterval: number;
  maxFrames: number;
  mode: ExtractionMode;
}

export function planFrames(o: PlanFramesOptions): FramePlan {
  if (!(Number.isFinite(o.durationSeconds) && o.durationSeconds > 0)) throw new RangeError(`durationSeconds must be > 0, got ${o.durationSeconds}`);
  if (!(Number.isFinite(o.frameInterval) && o.frameInterval > 0)) throw new RangeError(`frameInterval must be > 0, got ${o.frameInterval}`);
  if (!(Number.isInteger(o.maxFrames) && o.maxFrames >= 1)) throw new RangeError(`maxFrames must be an integer >= 1, got ${o.maxFrames}`);

  // Frames at k·interval < duration; the epsilon keeps 6 / 2 at 3 frames despite rounding.
  const wanted = Math.max(1, Math.ceil(o.durationSeconds / o.frameInterval - 1e-9));
  const widened = wanted > o.maxFrames;
  const interval = widened ? o.durationSeconds / o.maxFrames : o.frameInterval;
  const count = widened ? o.maxFrames : wanted;

  if (o.mode === 'scenes') {
    return { mode: 'scenes', interval, maxFrames: o.maxFrames, estimatedFrames: count, timestamps: [], method: 'sequential' };
  }
  const timestamps = Array.from({ length: count }, (_, k) => Math.round(k * interval * 1e6) / 1e6);
  return {
    mode: 'interval',
    interval,
    maxFrames: o.maxFrames,
    estimatedFrames: count,
    timestamps,
    method: interval >= SEEK_MIN_INTERVAL_SECONDS ? 'seek' : 'sequential',
  };
}
