import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Metrics } from '@cds/metrics';
import * as os from 'node:os';
import { BLOB_STORE, BlobStore, parseMediaRef } from '@cds/blob-store';
import { AppConfig } from '@cds/config';
import { DomainError, notFound } from '@cds/errors';
import { DecisionMedia, DecisionOcr } from '@cds/events';
import {
  decodeImage,
  fetchMedia,
  ImageSource,
  OcrEngine,
  openOcrEngine,
  parseImageInput,
  REQUIRED_TESSERACT_PACKS,
  renderForOcr,
  renderPixelsForOcr,
} from '@cds/media';
import { ImageForScoring, LOCAL_IMAGE_INPUT_SIZE } from '@cds/providers';
import { tracing } from '@cds/tracing';
import { Gate } from './gate';

/** An image ready to score: decoded frames, what the decision records of it, the text read in it. */
export interface PreparedImage {
  /** The URL it came from, or `media:sha256:<hex>` for inline bytes. */
  contentRef: string;
  image: ImageForScoring;
  media: DecisionMedia;
  /** The text read in it (null when OCR is off), read while the model scores the pixels. */
  ocrText: Promise<string | null>;
  /** How that text is read (engine, packs, a language read with English); null when OCR is off. */
  ocr: DecisionOcr | null;
}

const MAX_REDIRECTS = 3;
/** Longest side of the picture Tesseract reads. */
const OCR_MAX_SIDE = 2000;
/** Text kept from OCR (and scored): a screenshot of a page, not a book. */
const MAX_OCR_CHARS = 5000;
const OCR_CONCURRENCY = Math.max(1, os.availableParallelism());

/**
 * From a check's `content` (base64, data URI, URL, or the `media:sha256:<hex>` reference
 * of an image this tenant sent before and the service still keeps) to decoded frames: fetched through
 * the egress guard, sniffed, decoded with limits, stored in the blob store (so the
 * decision can name it and a reviewer fetch it back), and read by OCR.
 */
@Injectable()
export class ImageIntake implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ImageIntake');
  /** Tesseract reads one image per core (a process with OMP_THREAD_LIMIT=1, or a
   * tesseract.js worker thread): at most one per core at a time, so a burst of images
   * queues instead of starving the event loop. */
  private readonly ocrGate = new Gate(OCR_CONCURRENCY);
  /** Opened once, at start (or by the first image when the process has no bootstrap); looked for again after a failure. */
  private engine: Promise<OcrEngine> | null = null;

  constructor(
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    private readonly config: AppConfig,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  /** Says at start which OCR engine reads images here and with which packs, so a missing
   * engine or pack is seen before the first image check. */
  onApplicationBootstrap(): void {
    this.metrics?.gauge('cds_ocr_waiting', 'Images waiting for Tesseract (one read per core at a time)', [], (set) => set({}, this.ocrGate.waiting));
    if (this.config.IMAGE_OCR === 'off' || this.config.ROLE === 'projector') return;
    this.ocrEngine().then(
      (e) => {
        const missing = REQUIRED_TESSERACT_PACKS.filter((p) => !e.packs.has(p));
        const packs = missing.length === 0 ? 'every language pack' : `${e.packs.size} language packs; no ${missing.join(', ')}: read with English`;
        this.logger.log(`OCR engine: ${e.version} (${e.name === 'tesseract' ? 'the binary' : 'WebAssembly, no tesseract binary found'}), ${packs}`);
      },
      (err: Error) => this.logger.error(`IMAGE_OCR=on but ${err.message} (or set IMAGE_OCR=off): image checks will answer 503 OCR_UNAVAILABLE`),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    const engine = this.engine;
    this.engine = null;
    await engine?.then((e) => e.close()).catch(() => undefined);
  }

  private ocrEngine(): Promise<OcrEngine> {
    if (!this.engine) {
      const opening = openOcrEngine({ choice: this.config.OCR_ENGINE, concurrency: OCR_CONCURRENCY });
      // No engine now (503s meanwhile): the next image looks again, so installing one needs no restart.
      opening.catch(() => {
        if (this.engine === opening) this.engine = null;
      });
      this.engine = opening;
    }
    return this.engine;
  }

  /** How text in an image of this language is read here, for the decision; null when OCR
   * is off or has no engine (the read itself then fails the check). */
  async ocrFacts(language: string): Promise<DecisionOcr | null> {
    if (this.config.IMAGE_OCR === 'off') return null;
    try {
      const engine = await this.ocrEngine();
      const plan = engine.plan(language);
      return { engine: engine.name, languages: plan.languages, ...(plan.missing.length > 0 ? { missing: plan.missing } : {}) };
    } catch {
      return null;
    }
  }

  async prepare(tenantId: string, content: string, language: string): Promise<PreparedImage> {
    const stored = parseMediaRef(content.trim());
    const source: ImageSource =
      stored !== null ? { kind: 'inline', bytes: await this.storedMedia(tenantId, stored) } : parseImageInput(content, this.config.MAX_IMAGE_BYTES);
    const bytes =
      source.kind === 'inline'
        ? source.bytes
        : (
            await fetchMedia(source.url, {
              maxBytes: this.config.MAX_IMAGE_BYTES,
              timeoutMs: this.config.IMAGE_FETCH_TIMEOUT_MS,
              maxRedirects: MAX_REDIRECTS,
              egress: { allowLoopback: this.config.EGRESS_ALLOW_LOOPBACK, allowPrivate: this.config.EGRESS_ALLOW_PRIVATE },
            })
          ).bytes;
    const decoded = await decodeImage(bytes, {
      maxPixels: this.config.MAX_IMAGE_PIXELS,
      maxFrames: this.config.IMAGE_MAX_FRAMES,
      modelSize: LOCAL_IMAGE_INPUT_SIZE,
      ocrMaxSide: OCR_MAX_SIDE,
      withOcrImage: false,
      paddedSize: LOCAL_IMAGE_INPUT_SIZE,
    });
    const ocrText = this.readText(bytes, language);
    ocrText.catch(() => undefined); // awaited by the scorer; a failure before that is not unhandled
    const [blob, ocr] = await Promise.all([this.blobs.put(tenantId, bytes), this.ocrFacts(language)]);
    return {
      contentRef: source.kind === 'url' ? source.url : blob.ref,
      image: {
        bytes,
        format: decoded.format,
        width: decoded.width,
        height: decoded.height,
        frames: decoded.frames.map((f) => f.rgb),
        paddedFrames: decoded.frames.map((f) => f.padded!),
        frameSize: LOCAL_IMAGE_INPUT_SIZE,
      },
      media: {
        sha256: blob.sha256,
        format: decoded.format,
        width: decoded.width,
        height: decoded.height,
        bytes: bytes.length,
        frameCount: decoded.frameCount,
        framesScored: decoded.frames.length,
      },
      ocrText,
      ocr,
    };
  }

  /** Stores inline images of an async batch before its event is written (events never
   * carry image bytes): the item's content becomes its `media:sha256:` reference. URLs and
   * references stay as they are. */
  async storeInline(tenantId: string, content: string): Promise<string> {
    if (parseMediaRef(content.trim()) !== null) return content;
    const source = parseImageInput(content, this.config.MAX_IMAGE_BYTES);
    if (source.kind === 'url') return content;
    return (await this.blobs.put(tenantId, source.bytes)).ref;
  }

  private async storedMedia(tenantId: string, sha256: string): Promise<Buffer> {
    const bytes = await this.blobs.get(tenantId, sha256);
    if (!bytes) {
      throw notFound('MEDIA_NOT_FOUND', 'Media not found', `no media sha256:${sha256} in this tenant (never stored, or deleted after MEDIA_RETENTION_DAYS)`);
    }
    return bytes;
  }

  /** The text in an image's bytes, or null when OCR is off. OCR that cannot run is a 503
   * OCR_UNAVAILABLE: answering without reading the text would pass a threat written in an
   * image. A language without its pack is read with English (ocrFacts says so), never a 503. */
  readText(bytes: Buffer, language: string): Promise<string | null> {
    return this.ocr(() => renderForOcr(bytes, { maxPixels: this.config.MAX_IMAGE_PIXELS, ocrMaxSide: OCR_MAX_SIDE }), language);
  }

  /** The text in raw RGB pixels (a video frame as extracted), as readText reads a file but
   * with the picture's longest side at most `maxSide` (small frames are still enlarged up
   * to 2×). */
  readTextOfPixels(rgb: Buffer, width: number, height: number, language: string, maxSide = OCR_MAX_SIDE): Promise<string | null> {
    return this.ocr(() => renderPixelsForOcr(rgb, width, height, Math.min(maxSide, OCR_MAX_SIDE)), language);
  }

  private async ocr(picture: () => Promise<Buffer>, language: string): Promise<string | null> {
    if (this.config.IMAGE_OCR === 'off') return null;
    try {
      return await this.ocrGate.run(async () => {
        const png = await picture();
        const engine = await this.ocrEngine();
        const read = () => engine.read(png, { language, timeoutMs: this.config.OCR_TIMEOUT_MS });
        const traces = tracing();
        const { text } = traces.enabled ? await traces.span('ocr', { 'cds.ocr_engine': engine.name, 'cds.language': language }, read) : await read();
        return text.slice(0, MAX_OCR_CHARS);
      });
    } catch (err) {
      if (err instanceof DomainError) throw err;
      this.logger.error(`OCR failed: ${(err as Error).message}`);
      throw new DomainError(
        'unavailable',
        'OCR_UNAVAILABLE',
        'Text in the image could not be read',
        `${(err as Error).message}; retry, or run with IMAGE_OCR=off to score pixels only`,
      );
    }
  }
}
