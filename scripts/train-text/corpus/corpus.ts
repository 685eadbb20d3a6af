import { createHash } from 'crypto';
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { normalizeText } from '@cds/providers';
import { CorpusExample, DatasetLoader, Example, SIGNALS, Split } from './example';
import { hatecheck, multilingualHatecheck, toxigen, xstest } from './hate-suites.loaders';
import { apeach, germeval, japaneseToxic, kmhas, koreanHateSpeech, offensevalTr, rtpLx, toldBr, tupy } from './multilingual.loaders';
import { ailuminate, doNotAnswer, harmbenchStrongreject, medquad, multijail, redditCssrs, simpleSafetyTests } from './requests.loaders';
import { convabuse, davidson, diasafety, edos, mlma, surgeToxicity, toxicSpans } from './social-en.loaders';
import { xsafetyInsult } from './xsafety.loaders';

/**
 * Every labelled dataset, in dedupe priority order: when the same normalised text occurs
 * twice, the first dataset keeps it (so RTP-LX's KO/PT rows that come from BEEP!/ToLD-Br
 * are dropped in favour of the originals, and curated suites win over scraped sets).
 */
export const LOADERS: DatasetLoader[] = [
  hatecheck,
  multilingualHatecheck,
  xstest,
  toxigen,
  medquad,
  simpleSafetyTests,
  doNotAnswer,
  ailuminate,
  harmbenchStrongreject,
  multijail,
  redditCssrs,
  davidson,
  surgeToxicity,
  toxicSpans,
  edos,
  convabuse,
  diasafety,
  mlma,
  germeval,
  koreanHateSpeech,
  kmhas,
  apeach,
  toldBr,
  tupy,
  japaneseToxic,
  offensevalTr,
  rtpLx,
  xsafetyInsult,
];

/** Weight at or above which a label is reported in evaluation (weaker ones are training-only). */
export const REPORTED_WEIGHT = 0.75;

export interface DatasetStats {
  name: string;
  loaded: number;
  kept: number;
  duplicates: number;
  splits: Record<Split, number>;
  langs: Record<string, number>;
  positives: Record<string, number>;
}

export interface Corpus {
  examples: CorpusExample[];
  stats: DatasetStats[];
  notes: string[];
  /** sha256 of each dataset's SOURCE.txt (which pins the upstream commit and blob hashes) */
  sourceHashes: Record<string, string>;
  /** sha256 over every kept example (text, language, labels, split): changes iff the training data changes */
  corpusHash: string;
}

/** Deterministic split from the group key: 70% train, 10% dev, 20% test. */
export function splitOf(group: string): Split {
  const h = createHash('sha1').update(group).digest().readUInt32BE(0) / 0x100000000;
  return h < 0.7 ? 'train' : h < 0.8 ? 'dev' : 'test';
}

const SOURCE_DIRS: Record<string, string> = {
  hatecheck: 'hatecheck',
  'multilingual-hatecheck': 'multilingual-hatecheck',
  xstest: 'xstest',
  'toxigen-prompts': 'toxigen-prompts',
  medquad_sensitive_health: 'medquad_sensitive_health',
  simplesafetytests: 'simplesafetytests',
  'do-not-answer': 'do-not-answer',
  ailuminate_demo: 'ailuminate_demo',
  harmbench_strongreject_advbench: 'harmbench_strongreject_advbench',
  multijail: 'multijail',
  'reddit-cssrs-suicide': 'reddit-cssrs-suicide',
  'davidson-hate-offensive': 'davidson-hate-offensive',
  'surge-toxicity': 'surge-toxicity',
  toxic_spans: 'toxic_spans',
  edos: 'edos',
  convabuse: 'convabuse',
  diasafety: 'diasafety',
  'mlma-hate': 'mlma-hate',
  germeval2018: 'germeval2018',
  'korean-hate-speech': 'korean-hate-speech',
  kmhas_ko: 'kmhas_ko',
  apeach_ko: 'apeach_ko',
  'told-br': 'told-br',
  tupy_pt: 'tupy_pt',
  'japanese-toxic': 'japanese-toxic',
  offenseval2020_tr: 'offenseval2020_tr',
  rtp_lx: 'rtp_lx',
  ldnoobw: 'ldnoobw',
  'surge-profanity': 'surge-profanity',
};

export function loadCorpus(dataDir: string, log: (msg: string) => void = () => undefined, exclude: string[] = []): Corpus {
  if (!existsSync(dataDir)) throw new Error(`data directory not found: ${dataDir}`);
  const notes: string[] = [];
  const seen = new Set<string>();
  const examples: CorpusExample[] = [];
  const stats: DatasetStats[] = [];
  for (const loader of LOADERS) {
    if (exclude.includes(loader.name)) {
      notes.push(`${loader.name}: excluded (--exclude)`);
      continue;
    }
    const t0 = Date.now();
    let raw: Example[];
    try {
      raw = loader.load(dataDir, notes);
    } catch (err) {
      notes.push(`${loader.name}: failed to load (${(err as Error).message}), skipped`);
      raw = [];
    }
    const st: DatasetStats = {
      name: loader.name,
      loaded: raw.length,
      kept: 0,
      duplicates: 0,
      splits: { train: 0, dev: 0, test: 0 },
      langs: {},
      positives: {},
    };
    for (const e of raw) {
      if (typeof e.text !== 'string') continue;
      const norm = normalizeText(e.text);
      if (norm.length === 0) continue;
      if (seen.has(norm)) {
        st.duplicates++;
        continue;
      }
      seen.add(norm);
      const split = splitOf(e.group);
      examples.push({ ...e, norm, split });
      st.kept++;
      st.splits[split]++;
      st.langs[e.lang] = (st.langs[e.lang] ?? 0) + 1;
      for (const s of SIGNALS) {
        const l = e.labels[s];
        if (l && l.y === 1 && l.w >= REPORTED_WEIGHT) st.positives[s] = (st.positives[s] ?? 0) + 1;
      }
    }
    stats.push(st);
    log(`  ${loader.name}: ${st.kept} kept (${st.duplicates} duplicates) in ${Date.now() - t0} ms`);
  }
  const sourceHashes: Record<string, string> = {};
  for (const dir of Object.values(SOURCE_DIRS)) {
    const p = join(dataDir, dir, 'SOURCE.txt');
    if (existsSync(p)) sourceHashes[dir] = createHash('sha256').update(readFileSync(p)).digest('hex');
  }
  const h = createHash('sha256');
  for (const e of examples) h.update(`${e.dataset}\t${e.lang}\t${e.split}\t${e.norm}\t${JSON.stringify(e.labels)}\n`);
  return { examples, stats, notes, sourceHashes, corpusHash: h.digest('hex') };
}
