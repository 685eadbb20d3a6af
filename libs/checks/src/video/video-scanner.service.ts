import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { BLOB_STORE, BlobStore } from '@cds/blob-store';
import { AppConfig } from '@cds/config';
import { VideoExtraction, VideoFrameScore, VideoProbeFacts } from '@cds/events';
import {
  cutEvidenceFrame,
  ExtractedFrame,
  extractFrames,
  fetchMedia,
  findFfmpeg,
  frameSizeWithin,
  modelFramesOf,
  planFrames,
  probeFfmpegFeatures,
  probeVideo,
  VideoProbe,
} from '@cds/media';
import { ParsedPolicy } from '@cds/policy';
import { LOCAL_IMAGE_INPUT_SIZE } from '@cds/providers';
import { ContentScorer } from '../content-scorer.service';
import { ImageIntake } from '../image-intake.service';
import { greyThumbnail, TextReadPlanner } from './frame-change';
import { checkpointDue } from './video-segments';

/** Longest side of an evidence JPEG, and of the frames extracted (OCR reads them as they are). */
export const EVIDENCE_MAX_SIDE = 1280;
const CHECKPOINT_EVERY = { frames: 5, ms: 2000 };
/** Time a frame may take to score (model, OCR) within the extraction's deadline. */
const SCORING_ALLOWANCE_MS = 5000;

export interface ScanRequest {
  file: string;
  probe: VideoProbe;
  extraction: VideoExtraction;
  language: string;
  policy: ParsedPolicy;
  /** Frames scored before a crash: the scan resumes after them. */
  done?: VideoFrameScore[];
  /** Called with every frame so far at each checkpoint (the worker records them). */
  checkpoint?: (frames: VideoFrameScore[], framesTotal: number) => Promise<void>;
}

export interface ScanResult {
  frames: VideoFrameScore[];
  framesTotal: number;
  stoppedOnBlock: boolean;
}

/**
 * A video as frames and scores: downloaded through the egress guard into the blob store,
 * probed, sampled by one ffmpeg run (interval or scene changes, the interval widened so
 * `maxFrames` frames cover the whole video) at up to EVIDENCE_MAX_SIDE, aspect kept, each
 * frame scored by the image provider (its model frames made here from the full frame) and
 * some read by OCR, from the same frame: the first, scene cuts, every VIDEO_OCR_EVERY-th,
 * and those whose picture changed since the last one read (frame-change.ts). ffmpeg only
 * ever reads a local file of the blob store.
 */
@Injectable()
export class VideoScanner implements OnApplicationBootstrap {
  private readonly logger = new Logger('VideoScanner');
  /** Frames being scored at once: two per model thread keeps every thread busy. */
  private readonly inFlightLimit: number;

  constructor(
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    private readonly scorer: ContentScorer,
    private readonly images: ImageIntake,
    private readonly config: AppConfig,
  ) {
    this.inFlightLimit = Math.max(2, config.IMAGE_WORKERS * 2);
  }

  /** Says which ffmpeg runs here (or that none does: video checks then fail with the reason). */
  onApplicationBootstrap(): void {
    if (this.config.ROLE === 'projector') return;
    try {
      const b = findFfmpeg();
      this.logger.log(`ffmpeg ${b.ffmpeg}, ffprobe ${b.ffprobe} (from ${b.source})`);
      void probeFfmpegFeatures(b.ffmpeg).then((f) => {
        if (f.sceneTimes) this.logger.log(`${f.version}`);
        else this.logger.warn(`${f.version}: too old for scenes mode (no metadata direct option, ffmpeg < 4.3): such videos fail; interval mode works`);
      });
    } catch (err) {
      this.logger.error(`no ffmpeg: ${(err as Error).message}; video checks will fail`);
    }
  }

  /** Downloads a video URL into the blob store; answers its sha256. */
  async download(tenantId: string, url: string): Promise<string> {
    const { bytes } = await fetchMedia(url, {
      maxBytes: this.config.VIDEO_MAX_BYTES,
      timeoutMs: this.config.VIDEO_FETCH_TIMEOUT_MS,
      maxRedirects: 3,
      egress: { allowLoopback: this.config.EGRESS_ALLOW_LOOPBACK, allowPrivate: this.config.EGRESS_ALLOW_PRIVATE },
    });
    return (await this.blobs.put(tenantId, bytes)).sha256;
  }

  async fileOf(tenantId: string, sha256: string): Promise<string | null> {
    return this.blobs.pathOf(tenantId, sha256);
  }

  probe(file: string): Promise<VideoProbe> {
    return probeVideo(file, { timeoutMs: this.config.VIDEO_PROCESS_TIMEOUT_MS, maxPixels: this.config.VIDEO_MAX_PIXELS });
  }

  plan(probe: VideoProbe, extraction: VideoExtraction) {
    return planFrames({
      durationSeconds: probe.durationSeconds,
      frameInterval: extraction.frameInterval,
      maxFrames: extraction.maxFrames,
      mode: extraction.mode,
    });
  }

  async scan(r: ScanRequest): Promise<ScanResult> {
    const plan = this.plan(r.probe, r.extraction);
    const frames = [...(r.done ?? [])];
    const last = frames[frames.length - 1];
    let sinceFrames = 0;
    let sinceAt = Date.now();
    let stoppedOnBlock = false;
    // The extraction waits on the scoring (frames are pulled as they are scored), so its
    // deadline gives each frame room for the model and OCR on top of ffmpeg's own limit.
    const iterator = extractFrames(r.file, plan, {
      size: frameSizeWithin(r.probe.width, r.probe.height, EVIDENCE_MAX_SIDE),
      timeoutMs: this.config.VIDEO_PROCESS_TIMEOUT_MS + plan.estimatedFrames * SCORING_ALLOWANCE_MS,
      maxPixels: this.config.VIDEO_MAX_PIXELS,
      fromIndex: frames.length,
      ...(last ? { fromTimestamp: last.timestamp } : {}),
    });
    // Frames are scored while ffmpeg decodes the next ones, a few at a time (the model
    // threads and OCR run side by side), and taken back in order.
    const inFlight: Promise<VideoFrameScore>[] = [];
    const take = async (): Promise<boolean> => {
      const frame = await inFlight.shift()!;
      frames.push(frame);
      sinceFrames += 1;
      if (r.extraction.stopOnBlock && this.scorer.decide(r.policy, frame.signals).action === 'block') return false;
      if (r.checkpoint && checkpointDue({ frames: sinceFrames, ms: Date.now() - sinceAt }, CHECKPOINT_EVERY)) {
        await r.checkpoint(frames, Math.max(plan.estimatedFrames, frames.length));
        sinceFrames = 0;
        sinceAt = Date.now();
      }
      return true;
    };
    const planner = new TextReadPlanner(this.config.VIDEO_OCR_EVERY);
    try {
      for await (const f of iterator) {
        // in time order: which frames OCR reads depends on the last one read
        const models = await modelFramesOf(f.rgb, f.width, f.height, LOCAL_IMAGE_INPUT_SIZE);
        const reads = this.config.IMAGE_OCR !== 'off' && planner.next(f.index, f.scene, greyThumbnail(models.rgb, LOCAL_IMAGE_INPUT_SIZE)) !== null;
        const scoring = this.scoreFrame(r, f, models, reads);
        scoring.catch(() => undefined);
        inFlight.push(scoring);
        if (inFlight.length >= this.inFlightLimit && !(await take())) {
          stoppedOnBlock = true;
          break;
        }
      }
      while (!stoppedOnBlock && inFlight.length > 0) if (!(await take())) stoppedOnBlock = true;
    } finally {
      // Scores of frames past a blocked one (or past a failure) are not kept.
      await Promise.allSettled(inFlight);
    }
    return { frames, framesTotal: frames.length, stoppedOnBlock };
  }

  private async scoreFrame(r: ScanRequest, f: ExtractedFrame, models: { rgb: Buffer; padded: Buffer }, reads: boolean): Promise<VideoFrameScore> {
    // At most EVIDENCE_MAX_SIDE for Tesseract: a 720p frame is read as it is (captions are
    // large enough), not enlarged to 2000 as a still image would be (2.4× the pixels).
    const ocr = reads ? this.images.readTextOfPixels(f.rgb, f.width, f.height, r.language, EVIDENCE_MAX_SIDE) : Promise.resolve(null);
    ocr.catch(() => undefined);
    const image = {
      bytes: Buffer.alloc(0),
      format: 'rgb24',
      width: r.probe.width,
      height: r.probe.height,
      frames: [models.rgb],
      paddedFrames: [models.padded],
      frameSize: LOCAL_IMAGE_INPUT_SIZE,
    };
    const scored = await this.scorer.scoreImage(image, ocr, r.language);
    return { index: f.index, timestamp: f.timestamp, scene: f.scene, signals: scored.signals, ocrText: scored.ocrText };
  }

  /** A full-resolution JPEG of a flagged frame, kept in the blob store as evidence. */
  async evidence(tenantId: string, file: string, timestamp: number): Promise<string> {
    const jpeg = await cutEvidenceFrame(file, timestamp, {
      maxSide: EVIDENCE_MAX_SIDE,
      timeoutMs: this.config.VIDEO_PROCESS_TIMEOUT_MS,
      maxPixels: this.config.VIDEO_MAX_PIXELS,
    });
    return (await this.blobs.put(tenantId, jpeg)).sha256;
  }
}

export function probeFacts(p: VideoProbe): VideoProbeFacts {
  return { container: p.container, codec: p.codec, width: p.width, height: p.height, durationSeconds: p.durationSeconds, fps: p.fps };
}
