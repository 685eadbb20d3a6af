import { getOwn } from '@cds/policy';
import { ModerationProvider, ProviderScore, ScoreRequest } from '../port/provider.port';
import { ExternalCall } from './external-call';
import { OPENAI_PROVIDER, OPENAI_SIGNAL_FOLDING, openAiSignalsOf } from './openai.signals';
import { unsupportedInput } from './provider-call.error';
import { roundCost } from './response-shape';

export interface OpenAiOptions {
  apiKey: string;
  /** API root with `/v1`. */
  baseUrl: string;
  model: string;
  /** USD per call, text and image. */
  price: { text: number; image: number };
}

/** Image formats the moderation endpoint takes (as a data URL). */
const IMAGE_TYPES: Readonly<Record<string, string>> = Object.freeze({
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
});

/**
 * OpenAI moderation: `POST {base}/moderations` with the text, or one image as a data URL.
 * The answer's category scores are the signals (see openai.signals.ts).
 */
export class OpenAiProvider implements ModerationProvider {
  readonly name = OPENAI_PROVIDER;
  readonly modalities = ['text', 'image'] as const;
  readonly folding = OPENAI_SIGNAL_FOLDING;
  readonly model: string;
  private readonly url: string;

  constructor(
    private readonly options: OpenAiOptions,
    private readonly call: ExternalCall,
  ) {
    this.model = options.model;
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/moderations`;
  }

  circuitState() {
    return this.call.state();
  }

  async score(request: ScoreRequest): Promise<ProviderScore> {
    const input =
      request.modality === 'text' ? request.text : [{ type: 'image_url', image_url: { url: this.dataUrl(request.image.format, request.image.bytes) } }];
    const signals = await this.call.run((http) =>
      http.postJson({ url: this.url, headers: { authorization: `Bearer ${this.options.apiKey}` }, body: { model: this.options.model, input } }, (json) =>
        openAiSignalsOf(json, request.modality),
      ),
    );
    return { signals, cost: roundCost(this.options.price[request.modality]) };
  }

  private dataUrl(format: string, bytes: Buffer): string {
    const type = getOwn(IMAGE_TYPES, format.toLowerCase());
    if (type === undefined) throw unsupportedInput(this.name, `image format ${format} (takes ${Object.keys(IMAGE_TYPES).join(', ')})`);
    return `data:${type};base64,${bytes.toString('base64')}`;
  }
}
