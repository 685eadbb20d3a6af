import { LOCAL_TEXT_SIGNALS, LocalTextSignal } from '@cds/providers';

export type Signal = LocalTextSignal;
export const SIGNALS: readonly Signal[] = LOCAL_TEXT_SIGNALS;

/** y = target, w = confidence; w < 1 marks a weak label (trained on, never reported). */
export interface Label {
  y: 0 | 1;
  w: number;
}

export type Labels = Partial<Record<Signal, Label>>;

/** Which categories a hard negative must stay low on. */
export type HardNegativeScope = 'hate' | 'self-harm' | 'any';

export interface Example {
  dataset: string;
  lang: string;
  text: string;
  /** split key: examples sharing it (translations, one template, one user) land in the same split */
  group: string;
  labels: Labels;
  hardNegative?: { set: string; scope: HardNegativeScope };
}

export type Split = 'train' | 'dev' | 'test';

export interface CorpusExample extends Example {
  split: Split;
  norm: string;
}

export interface DatasetLoader {
  name: string;
  /** loads the dataset from `<dataDir>/<dir>`; returns [] and a note when a file is missing */
  load(dataDir: string, notes: string[]): Example[];
}

const SUB_OF: Partial<Record<Signal, Signal>> = {
  insult: 'harassment',
  hate_threat: 'hate',
  violence_threat: 'violence',
  self_harm_intent: 'self_harm',
  sexual_minors: 'sexual',
};

/** Small builder so loaders read like the README's mapping table. */
export class LabelBuilder {
  private readonly m: Labels = {};

  pos(signals: Signal | Signal[], w = 1): this {
    for (const s of ([] as Signal[]).concat(signals)) this.set(s, 1, w);
    return this;
  }

  neg(signals: Signal | Signal[], w = 1): this {
    for (const s of ([] as Signal[]).concat(signals)) this.set(s, 0, w);
    return this;
  }

  /** Every signal not set yet becomes a negative of weight `w`. */
  negRest(w: number): this {
    for (const s of SIGNALS) if (this.m[s] === undefined) this.m[s] = { y: 0, w };
    return this;
  }

  build(): Labels {
    // a positive sub-signal implies its parent; a strong negative parent implies negative subs
    for (const [sub, parent] of Object.entries(SUB_OF) as [Signal, Signal][]) {
      const s = this.m[sub];
      const p = this.m[parent];
      if (s && s.y === 1 && (!p || p.y === 0 || p.w < s.w)) this.m[parent] = { y: 1, w: Math.max(s.w, p && p.y === 1 ? p.w : 0) };
      if (p && p.y === 0 && !s) this.m[sub] = { y: 0, w: p.w };
    }
    return { ...this.m };
  }

  private set(s: Signal, y: 0 | 1, w: number): void {
    const cur = this.m[s];
    // a positive wins over a negative; a stronger label wins over a weaker one of the same sign
    if (!cur || (y === 1 && cur.y === 0) || (y === cur.y && w > cur.w)) this.m[s] = { y, w };
  }
}

export const labels = () => new LabelBuilder();
