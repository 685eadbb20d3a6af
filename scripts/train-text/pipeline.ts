import {
  FeaturizerConfig,
  LexiconFile,
  LexiconFloor,
  LexiconIndex,
  LocalTextClassifier,
  LocalTextModel,
  LocalTextModelHeader,
  TextFeaturizer,
} from '@cds/providers';
import { REPORTED_WEIGHT } from './corpus/corpus';
import { CorpusExample, SIGNALS } from './corpus/example';
import { FeatureStore } from './feature-store';
import { fitPlatt } from './metrics';
import { TrainOptions, quantize, trainModel } from './trainer';

export const LEXICON_FILE_NAME = 'local-text-lexicons.json';

export interface BuiltModel {
  model: LocalTextModel;
  classifier: LocalTextClassifier;
}

/**
 * Train -> quantise -> calibrate (Platt per signal, on the dev split, through the
 * quantised runtime path so the calibration matches what ships).
 */
export function buildModel(args: {
  store: FeatureStore;
  trainIdx: number[];
  devIdx: number[];
  lexicon: LexiconFile;
  lexiconSha256: string;
  featurizer: FeaturizerConfig;
  denseNames: string[];
  opts: TrainOptions;
  log: (m: string) => void;
}): BuiltModel {
  const { store, trainIdx, devIdx, lexicon, opts, log } = args;
  const float = trainModel(store, trainIdx, opts, log);
  const { table, scales } = quantize(float);
  const K = SIGNALS.length;
  const denseWeights: number[][] = [];
  for (let j = 0; j < float.D; j++) denseWeights.push(SIGNALS.map((_, k) => round6(float.denseW[j * K + k])));
  const header: LocalTextModelHeader = {
    format: 1,
    signals: [...SIGNALS],
    featurizer: args.featurizer,
    tableEncoding: 'int8-deflate',
    scales: scales.map((s) => Number(s.toPrecision(9))),
    bias: Array.from(float.bias, round6),
    denseNames: args.denseNames,
    denseWeights,
    calibration: SIGNALS.map(() => ({ a: 1, b: 0 })),
    lexiconFile: LEXICON_FILE_NAME,
    lexiconSha256: args.lexiconSha256,
    lexiconFloors: [selfHarmFloor(store, trainIdx, args.denseNames, log)],
  };
  const uncalibrated = LocalTextClassifier.fromModel({ header, table }, lexicon);
  const raw = devIdx.map((i) => uncalibrated.rawScores(store.examples[i].text, store.examples[i].lang));
  header.calibration = SIGNALS.map((s, k) => {
    // every labelled dev example, weighted by its label weight: calibrating on the reported
    // (strong) labels alone would adopt the base rate of the few datasets that label a signal
    const z: number[] = [];
    const y: number[] = [];
    const w: number[] = [];
    devIdx.forEach((i, r) => {
      const l = store.examples[i].labels[s];
      if (l && l.w > 0) {
        z.push(raw[r][k]);
        y.push(l.y);
        w.push(l.w);
      }
    });
    const c = fitPlatt(z, y, w);
    return { a: round6(c.a), b: round6(c.b) };
  });
  const model = { header, table };
  return { model, classifier: LocalTextClassifier.fromModel(model, lexicon) };
}

/**
 * Floor for first-person self-harm phrases: the share of training texts hitting one that
 * carry a self-harm label (Laplace-smoothed), kept within [0.5, 0.95].
 */
function selfHarmFloor(store: FeatureStore, trainIdx: number[], denseNames: string[], log: (m: string) => void): LexiconFloor {
  const j = denseNames.indexOf('lex_self_harm_intent');
  const k = SIGNALS.indexOf('self_harm');
  let hits = 0;
  let pos = 0;
  for (const i of trainIdx) {
    if (j < 0 || !store.dense[i * store.D + j]) continue;
    const w = store.w[i * store.K + k];
    if (w < REPORTED_WEIGHT) continue;
    hits++;
    if (store.y[i * store.K + k]) pos++;
  }
  const precision = (pos + 1) / (hits + 2);
  const score = Math.round(Math.min(0.95, Math.max(0.5, precision)) * 100) / 100;
  log(`  self-harm intent phrases: ${pos}/${hits} labelled training hits are self-harm -> floor ${score}`);
  return { lexiconCategory: 'self_harm_intent', signals: ['self_harm', 'self_harm_intent'], score };
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

export function indicesOf(examples: CorpusExample[], pred: (e: CorpusExample) => boolean): number[] {
  const out: number[] = [];
  examples.forEach((e, i) => {
    if (pred(e)) out.push(i);
  });
  return out;
}

export function makeFeaturizer(config: FeaturizerConfig, lexicon: LexiconFile): TextFeaturizer {
  return new TextFeaturizer(config, LexiconIndex.fromFile(lexicon));
}
