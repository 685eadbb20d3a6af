import { ModerationProvider, ProviderScore, ScoreRequest } from '../port/provider.port';
import { ExternalCall } from './external-call';
import { mergeSignals } from '../port/provider-registry';
import { LLAMAGUARD_PROVIDER, LLAMAGUARD_SIGNAL_FOLDING, llamaGuardSignalsOf, promptGuardSignalsOf } from './llamaguard.signals';
import { unsupportedInput } from './provider-call.error';
import { roundCost } from './response-shape';

export interface LlamaGuardOptions {
  /** OpenAI-compatible server root with `/v1`. */
  baseUrl: string;
  model: string;
  /** Sent as a Bearer token when set. */
  apiKey?: string;
  /** USD per call. */
  price: number;
  /** A Prompt Guard classifier the same server serves (e.g. meta-llama/Llama-Prompt-Guard-2-86M),
   * asked at `/classify` when a policy names prompt_injection or jailbreak. */
  promptGuardModel?: string;
}

/** Room for `unsafe` and every hazard code (`S1,S2,...,S14`). */
const MAX_TOKENS = 64;
/** Alternatives asked for per token: enough to see both "safe" and "unsafe". */
const TOP_LOGPROBS = 5;

/**
 * Llama Guard (3) behind an OpenAI-compatible chat-completions server (vLLM, TGI,
 * llama.cpp...). The content goes as the user turn; the server's chat template for the
 * model wraps it in Llama Guard's prompt. Text only. With a Prompt Guard model configured
 * and a policy that names prompt_injection or jailbreak, the text also goes to the server's
 * classification endpoint (`/classify`).
 */
export class LlamaGuardProvider implements ModerationProvider {
  readonly name = LLAMAGUARD_PROVIDER;
  readonly modalities = ['text'] as const;
  readonly folding = LLAMAGUARD_SIGNAL_FOLDING;
  readonly model: string;
  private readonly url: string;
  private readonly classifyUrl: string;

  constructor(
    private readonly options: LlamaGuardOptions,
    private readonly call: ExternalCall,
  ) {
    this.model = options.model;
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.classifyUrl = `${options.baseUrl.replace(/\/+$/, '')}/classify`;
  }

  circuitState() {
    return this.call.state();
  }

  async score(request: ScoreRequest): Promise<ProviderScore> {
    if (request.modality !== 'text') throw unsupportedInput(this.name, `${request.modality} (text only)`);
    const body = {
      model: this.options.model,
      messages: [{ role: 'user', content: request.text }],
      max_tokens: MAX_TOKENS,
      temperature: 0,
      logprobs: true,
      top_logprobs: TOP_LOGPROBS,
    };
    const headers: Record<string, string> = this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {};
    const signals = await this.call.run((http) => http.postJson({ url: this.url, headers, body }, llamaGuardSignalsOf));
    const guard = this.options.promptGuardModel;
    if (!request.injection || !guard) return { signals, cost: roundCost(this.options.price) };
    const attack = await this.call.run((http) =>
      http.postJson({ url: this.classifyUrl, headers, body: { model: guard, input: request.text } }, promptGuardSignalsOf),
    );
    return { signals: mergeSignals(signals, attack), cost: roundCost(2 * this.options.price) };
  }
}
