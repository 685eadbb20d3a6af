import { ModerationProvider, ProviderScore, ScoreRequest } from '../port/provider.port';
import { ExternalCall } from './external-call';
import { GOOGLE_VISION_PROVIDER, GOOGLE_VISION_SIGNAL_FOLDING, googleVisionSignalsOf } from './google-vision.signals';
import { unsupportedInput } from './provider-call.error';
import { roundCost } from './response-shape';

export interface GoogleVisionOptions {
  apiKey: string;
  /** Default https://vision.googleapis.com. */
  baseUrl: string;
  /** USD per image. */
  price: number;
}

const IMAGE_FORMATS = new Set(['jpeg', 'jpg', 'png', 'gif', 'bmp', 'webp', 'tiff', 'ico']);

/** Cloud Vision SafeSearch (`images:annotate`, SAFE_SEARCH_DETECTION), images only. */
export class GoogleVisionProvider implements ModerationProvider {
  readonly name = GOOGLE_VISION_PROVIDER;
  readonly modalities = ['image'] as const;
  readonly folding = GOOGLE_VISION_SIGNAL_FOLDING;
  private readonly url: string;

  constructor(
    private readonly options: GoogleVisionOptions,
    private readonly call: ExternalCall,
  ) {
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/v1/images:annotate?key=${encodeURIComponent(options.apiKey)}`;
  }

  circuitState() {
    return this.call.state();
  }

  async score(request: ScoreRequest): Promise<ProviderScore> {
    if (request.modality !== 'image') throw unsupportedInput(this.name, `${request.modality} (images only)`);
    const { format, bytes } = request.image;
    if (!IMAGE_FORMATS.has(format.toLowerCase())) throw unsupportedInput(this.name, `image format ${format} (takes ${[...IMAGE_FORMATS].join(', ')})`);
    const body = { requests: [{ image: { content: bytes.toString('base64') }, features: [{ type: 'SAFE_SEARCH_DETECTION' }] }] };
    const signals = await this.call.run((http) => http.postJson({ url: this.url, headers: {}, body }, googleVisionSignalsOf));
    return { signals, cost: roundCost(this.options.price) };
  }
}
