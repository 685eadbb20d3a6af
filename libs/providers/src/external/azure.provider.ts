import { ScoreMap } from '@cds/events';
import { ImageForScoring, ModerationProvider, ProviderScore, ScoreRequest } from '../port/provider.port';
import { mergeSignals } from '../port/provider-registry';
import { AZURE_CATEGORIES, AZURE_PROVIDER, AZURE_SIGNAL_FOLDING, azureShieldSignalsOf, azureSignalsOf } from './azure.signals';
import { ExternalCall } from './external-call';
import { unsupportedInput } from './provider-call.error';
import { roundCost } from './response-shape';

export interface AzureContentSafetyOptions {
  /** The resource endpoint, e.g. https://<name>.cognitiveservices.azure.com. */
  endpoint: string;
  key: string;
  /** Text blocklists to match, by name. */
  blocklists: readonly string[];
  /** USD per text record (1000 characters) and per image. */
  price: { text: number; image: number };
}

export const AZURE_API_VERSION = '2024-09-01';
/** text:analyze takes at most 10k characters (code points) a request. */
export const AZURE_MAX_TEXT_CHARS = 10_000;
const TEXT_RECORD_CHARS = 1000;
const IMAGE_FORMATS = new Set(['jpeg', 'jpg', 'png', 'gif', 'bmp', 'tiff', 'webp']);
const MAX_IMAGE_BYTES = 4 * 1024 * 1024;
const IMAGE_SIDE = { min: 50, max: 7200 };

/**
 * Azure AI Content Safety: `text:analyze` and `image:analyze` with the subscription key.
 * A text longer than one request takes is cut in 10k-character pieces, scored side by
 * side, and the worst of each signal wins. When the policy asks for prompt_injection or
 * jailbreak (ScoreRequest.injection), each piece then also goes to Prompt Shields
 * (`text:shieldPrompt`, as the user prompt and as the one document), priced as text too.
 */
export class AzureContentSafetyProvider implements ModerationProvider {
  readonly name = AZURE_PROVIDER;
  readonly modalities = ['text', 'image'] as const;
  readonly folding = AZURE_SIGNAL_FOLDING;
  private readonly root: string;

  constructor(
    private readonly options: AzureContentSafetyOptions,
    private readonly call: ExternalCall,
  ) {
    this.root = `${options.endpoint.replace(/\/+$/, '')}/contentsafety`;
  }

  circuitState() {
    return this.call.state();
  }

  async score(request: ScoreRequest): Promise<ProviderScore> {
    if (request.modality === 'image') {
      const body = { image: { content: this.imageContent(request.image) }, categories: AZURE_CATEGORIES, outputType: 'FourSeverityLevels' };
      const signals = await this.call.run(() => this.analyze('image:analyze', body, []));
      return { signals, cost: roundCost(this.options.price.image) };
    }
    const pieces = splitCodePoints(request.text, AZURE_MAX_TEXT_CHARS);
    const { blocklists } = this.options;
    const perPiece = await this.call.run(() =>
      Promise.all(
        pieces.map((text) =>
          this.analyze(
            'text:analyze',
            {
              text,
              categories: AZURE_CATEGORIES,
              ...(blocklists.length > 0 ? { blocklistNames: blocklists, haltOnBlocklistHit: false } : {}),
              outputType: 'FourSeverityLevels',
            },
            blocklists,
          ),
        ),
      ),
    );
    const records = pieces.reduce((n, text) => n + Math.max(1, Math.ceil([...text].length / TEXT_RECORD_CHARS)), 0);
    if (!request.injection) return { signals: mergeSignals(...perPiece), cost: roundCost(records * this.options.price.text) };
    const shields = await this.call.run(() =>
      Promise.all(
        pieces.map((text) =>
          this.call.http.postJson(
            {
              url: `${this.root}/text:shieldPrompt?api-version=${AZURE_API_VERSION}`,
              headers: { 'ocp-apim-subscription-key': this.options.key },
              body: { userPrompt: text, documents: [text] },
            },
            azureShieldSignalsOf,
          ),
        ),
      ),
    );
    return { signals: mergeSignals(...perPiece, ...shields), cost: roundCost(2 * records * this.options.price.text) };
  }

  private analyze(operation: string, body: unknown, blocklists: readonly string[]): Promise<ScoreMap> {
    return this.call.http.postJson(
      { url: `${this.root}/${operation}?api-version=${AZURE_API_VERSION}`, headers: { 'ocp-apim-subscription-key': this.options.key }, body },
      (json) => azureSignalsOf(json, blocklists),
    );
  }

  private imageContent(image: ImageForScoring): string {
    const format = image.format.toLowerCase();
    if (!IMAGE_FORMATS.has(format)) throw unsupportedInput(this.name, `image format ${image.format} (takes ${[...IMAGE_FORMATS].join(', ')})`);
    if (image.bytes.length > MAX_IMAGE_BYTES) throw unsupportedInput(this.name, `image of ${image.bytes.length} bytes (at most 4 MB)`);
    const sides = [image.width, image.height];
    if (sides.some((s) => s < IMAGE_SIDE.min || s > IMAGE_SIDE.max)) {
      throw unsupportedInput(this.name, `image of ${image.width}×${image.height} px (each side ${IMAGE_SIDE.min}-${IMAGE_SIDE.max})`);
    }
    return image.bytes.toString('base64');
  }
}

/** `text` in pieces of at most `size` code points (never splitting a surrogate pair); one
 * piece for an empty text. */
export function splitCodePoints(text: string, size: number): string[] {
  const points = [...text];
  if (points.length <= size) return [text];
  const pieces: string[] = [];
  for (let i = 0; i < points.length; i += size) pieces.push(points.slice(i, i + size).join(''));
  return pieces;
}
