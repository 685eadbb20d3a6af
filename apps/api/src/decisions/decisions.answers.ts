import type { Action, ScoreMap } from '@cds/events';
import { Named, Extends, Field, inline, OptionalField } from '../openapi/answer-fields';
import { alwaysTrue, anyObject, arr, bool, dateTime, int, mapOf, nullable, num, oneOfValues, ref, str, uuid } from '../openapi/schema-builders';
import { CategoryResult, CheckDecision, MultimodalResult } from '../checks/checks.answers';

const action = ref('Action');

/** The answers of GET /v1/decisions, /v1/decisions/{id}, its replay and its curl. */
class ReplayOriginal {
  @Field(str()) policyId!: string;
  @Field(int()) policyVersion!: number;
  @Field(action) action!: Action;
  @Field(bool()) safe!: boolean;
}

@Named()
@Extends(CheckDecision)
export class ReplayedDecision extends CheckDecision {
  @Field(str()) policyId!: string;
  @Field(int()) policyVersion!: number;
  @Field(alwaysTrue()) replayed!: true;
  @Field(inline(ReplayOriginal)) original!: ReplayOriginal;
  @OptionalField(arr(ref(MultimodalResult), 'for a multimodal decision: each item again, in request order')) results?: MultimodalResult[];
}

@Named('facts about an image a decision scored (the bytes are in the media store)')
export class MediaInfo {
  @Field(str()) sha256!: string;
  @Field(str()) format!: string;
  @Field(int()) width!: number;
  @Field(int()) height!: number;
  @Field(int()) bytes!: number;
  @Field(int('frames in the file: 1 unless animated')) frameCount!: number;
  @Field(int()) framesScored!: number;
}

class PartOcr {
  @Field(str('tesseract (the binary) or tesseract.js (WebAssembly, where the binary is missing)')) engine!: string;
  @Field(str('the Tesseract packs read with, e.g. deu+eng')) languages!: string;
  @OptionalField(arr(str(), "packs the check's language needed that this engine lacks: the text was read with English")) missing?: string[];
}

class PartFrame {
  @Field(int()) frameNumber!: number;
  @Field(num('position in the video, seconds')) timestamp!: number;
  @Field(nullable(str('a full-resolution JPEG of a flagged frame in the media store, else null'))) evidenceSha256!: string | null;
}

const MODEL =
  "the model that answered: the local text model (multilingual-e5-small-q4+heads:<sha>, or ngram:<sha> under LOCAL_TEXT_MODEL=ngram or when the cascade cleared the text), the local image model, an external provider's model";

class PartAttempt {
  @Field(str()) provider!: string;
  @Field(bool()) ok!: boolean;
  @Field(num()) ms!: number;
  @OptionalField(str('why it failed: timeout, server_error, rate_limited, circuit_open, …')) reason?: string;
  @OptionalField(bool()) cached?: boolean;
  @OptionalField(str(MODEL)) model?: string;
}

@Named('one item scored in a decision')
export class DecisionPart {
  @Field(oneOfValues(['text', 'image', 'video'])) contentType!: 'text' | 'image' | 'video';
  @Field(mapOf(mapOf(num()), 'raw signals per provider')) signals!: Record<string, ScoreMap>;
  @Field(arr(ref(CategoryResult))) categories!: CategoryResult[];
  @Field(action) action!: Action;
  @Field(bool()) safe!: boolean;
  @Field(bool()) flagged!: boolean;
  @Field(nullable(str('media:sha256:<hex> of an image, the image URL, or null for text'))) contentRef!: string | null;
  @Field(nullable(str('text read in the image; null for text, or when OCR is off'))) ocrText!: string | null;
  @Field(nullable(ref(MediaInfo))) media!: MediaInfo | null;
  @OptionalField(inline(PartOcr, 'how ocrText was read')) ocr?: PartOcr;
  @OptionalField(inline(PartFrame, 'a sampled frame of a video decision')) frame?: PartFrame;
  @OptionalField(mapOf(arr(str()), 'who scored each policy category of this item (after any fallback)')) routes?: Record<string, string[]>;
  @OptionalField(arr(inline(PartAttempt), 'every provider call made for this item, failed ones included')) attempts?: PartAttempt[];
}

@Named()
export class StoredDecision {
  @Field(uuid()) decisionId!: string;
  @Field(str('the original content (for images, the media reference)')) content!: string;
  @Field(bool()) safe!: boolean;
  @Field(action) action!: Action;
  @Field(dateTime('ISO 8601 UTC')) timestamp!: string;
  @Field(str('policy applied')) policyId!: string;
  @Field(int()) policyVersion!: number;
  @Field(bool()) flagged!: boolean;
  @Field(arr(ref(CategoryResult))) categories!: CategoryResult[];
  @Field(oneOfValues(['text', 'image', 'video', 'multimodal'])) contentType!: 'text' | 'image' | 'video' | 'multimodal';
  @Field(str()) language!: string;
  @Field(anyObject()) metadata!: Record<string, unknown>;
  @Field(nullable(str())) requestId!: string | null;
  @Field(str('who scored; several are comma-separated')) provider!: string;
  @Field(mapOf(mapOf(num()), 'raw signals per provider, as they were stored')) signals!: Record<string, ScoreMap>;
  @Field(arr(ref(DecisionPart), 'the items scored')) parts!: DecisionPart[];
  @Field(num()) latency!: number;
  @Field(num()) cost!: number;
}

@Named()
export class DecisionList {
  @Field(arr(ref(StoredDecision))) decisions!: StoredDecision[];
}

@Named()
export class CurlCommand {
  @Field(str('a command reproducing the check; the key is read from $API_KEY')) curl!: string;
}
