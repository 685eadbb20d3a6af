import { Action } from '@cds/events';
import { ACTIONS } from '@cds/policy';

export interface FrameOutcome {
  timestamp: number;
  flagged: boolean;
  action: Action;
  /** Categories that triggered on the frame. */
  triggered: string[];
}

export interface VideoSegment {
  /** Seconds: the first and the last flagged frame of the run. */
  start: number;
  end: number;
  categories: string[];
  /** The most severe action in the run. */
  action: Action;
  frames: number;
}

/**
 * Consecutive flagged frames (in timestamp order) merged into spans, so a reviewer jumps
 * to the minute that matters. A frame that is not flagged ends a span.
 */
export function flaggedSegments(frames: readonly FrameOutcome[]): VideoSegment[] {
  const out: VideoSegment[] = [];
  let open: VideoSegment | null = null;
  for (const f of [...frames].sort((a, b) => a.timestamp - b.timestamp)) {
    if (!f.flagged) {
      open = null;
      continue;
    }
    if (!open) {
      open = { start: f.timestamp, end: f.timestamp, categories: [], action: f.action, frames: 0 };
      out.push(open);
    }
    open.end = f.timestamp;
    open.frames += 1;
    for (const c of f.triggered) if (!open.categories.includes(c)) open.categories.push(c);
    if (ACTIONS.indexOf(f.action) > ACTIONS.indexOf(open.action)) open.action = f.action;
  }
  return out;
}

/** When the worker records a checkpoint: every `frames` frames, or `ms` after the last one. */
export function checkpointDue(sinceLast: { frames: number; ms: number }, every: { frames: number; ms: number }): boolean {
  return sinceLast.frames >= every.frames || (sinceLast.frames > 0 && sinceLast.ms >= every.ms);
}
