import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { parseCsvObjects, parseDelimited, parsePlainTsv } from '../csv';
import { DatasetLoader, Example, LabelBuilder, labels } from './example';

const read = (p: string) => readFileSync(p, 'utf8');
const ex = (dataset: string, lang: string, text: string, l: LabelBuilder, group?: string): Example => ({
  dataset,
  lang,
  text,
  group: group ?? `t:${text}`,
  labels: l.build(),
});

/** GermEval 2018 (de): ABUSE -> hate, INSULT -> harassment, PROFANITY -> profanity only. */
export const germeval: DatasetLoader = {
  name: 'germeval2018',
  load(dataDir) {
    const out: Example[] = [];
    for (const f of ['germeval2018.training.txt', 'germeval2018.test.txt']) {
      for (const [text, , fine] of parsePlainTsv(read(join(dataDir, 'germeval2018', f)))) {
        if (!text || !fine) continue;
        const l = labels();
        if (fine === 'ABUSE') l.pos(['hate', 'toxicity']).pos('harassment', 0.3);
        else if (fine === 'INSULT') l.pos(['harassment', 'insult', 'toxicity']).neg('hate', 0.5);
        else if (fine === 'PROFANITY') l.pos(['profanity', 'toxicity']).neg(['hate', 'harassment', 'insult'], 0.5);
        else l.neg(['hate', 'harassment', 'insult', 'toxicity', 'profanity']).negRest(0.5);
        if (fine !== 'OTHER') l.neg(['self_harm', 'sexual'], 0.3);
        out.push(ex('germeval2018', 'de', text.replace(/\|LBR\|/g, ' '), l));
      }
    }
    return out;
  },
};

/** kocohub korean-hate-speech: hate with a bias -> hate; other hate/offensive -> harassment. */
export const koreanHateSpeech: DatasetLoader = {
  name: 'korean-hate-speech',
  load(dataDir) {
    const out: Example[] = [];
    for (const f of ['train.tsv', 'dev.tsv']) {
      for (const r of parseCsvObjects(read(join(dataDir, 'korean-hate-speech/labeled', f)), '\t')) {
        const l = labels();
        const biased = r.bias !== 'none';
        if (r.hate === 'hate' && biased) l.pos(['hate', 'toxicity']).pos('harassment', 0.3);
        else if (r.hate === 'hate') l.pos(['harassment', 'toxicity']).neg('hate', 0.5);
        else if (r.hate === 'offensive') {
          l.pos('toxicity').pos('harassment', 0.5);
          if (biased) l.pos('hate', 0.5);
          else l.neg('hate', 0.5);
        } else l.neg(['hate', 'harassment', 'insult', 'toxicity']).negRest(0.5);
        out.push(ex('korean-hate-speech', 'ko', r.comments, l));
      }
    }
    return out;
  },
};

/** K-MHaS: 0 origin, 1 physical, 2 politics, 3 profanity, 4 age, 5 gender, 6 race, 7 religion, 8 none. */
export const kmhas: DatasetLoader = {
  name: 'kmhas_ko',
  load(dataDir) {
    const out: Example[] = [];
    for (const f of ['kmhas_valid.txt', 'kmhas_test.txt']) {
      const rows = parseDelimited(read(join(dataDir, 'kmhas_ko/data', f)), '\t').slice(1);
      for (const [text, label] of rows) {
        if (!text || label === undefined) continue;
        const set = new Set(label.split(',').map((s) => s.trim()));
        const l = labels();
        if (set.has('8')) l.neg(['hate', 'harassment', 'insult', 'toxicity', 'profanity']).negRest(0.5);
        else {
          l.pos('toxicity');
          if (['0', '4', '5', '6', '7'].some((c) => set.has(c))) l.pos('hate');
          else if (set.has('2')) l.pos('hate', 0.5);
          if (set.has('1')) l.pos(['harassment', 'insult']).pos('hate', 0.5);
          if (set.has('3')) l.pos('profanity').pos('harassment', 0.5);
          l.neg(['self_harm'], 0.5);
        }
        out.push(ex('kmhas_ko', 'ko', text, l));
      }
    }
    return out;
  },
};

export const apeach: DatasetLoader = {
  name: 'apeach_ko',
  load(dataDir) {
    return parseCsvObjects(read(join(dataDir, 'apeach_ko/APEACH/test.csv'))).map((r) =>
      ex(
        'apeach_ko',
        'ko',
        r.text,
        r.class === 'Spoiled'
          ? labels().pos('toxicity').pos(['hate', 'harassment'], 0.5)
          : labels().neg(['hate', 'harassment', 'insult', 'toxicity']).negRest(0.5),
      ),
    );
  },
};

/** ToLD-Br: per-class annotator counts (0-3); 2+ is a positive, exactly 1 is left unlabelled. */
export const toldBr: DatasetLoader = {
  name: 'told-br',
  load(dataDir) {
    return parseCsvObjects(read(join(dataDir, 'told-br/ToLD-BR.csv'))).map((r) => {
      const n = (k: string) => Number(r[k]) || 0;
      const hate = Math.max(n('homophobia'), n('racism'), n('misogyny'), n('xenophobia'));
      const all = Math.max(hate, n('insult'), n('obscene'));
      const l = labels();
      if (all === 0) return ex('told-br', 'pt', r.text, l.neg(['hate', 'harassment', 'insult', 'toxicity', 'profanity']).negRest(0.5));
      if (hate >= 2) l.pos('hate');
      else if (hate === 0) l.neg('hate', 0.5);
      if (n('insult') >= 2) l.pos(['harassment', 'insult']);
      else if (n('insult') === 0) l.neg(['insult'], 0.5);
      if (n('obscene') >= 2) l.pos('profanity');
      if (all >= 2) l.pos('toxicity');
      l.neg('self_harm', 0.5);
      return ex('told-br', 'pt', r.text, l);
    });
  },
};

export const tupy: DatasetLoader = {
  name: 'tupy_pt',
  load(dataDir) {
    return parseCsvObjects(read(join(dataDir, 'tupy_pt/tupy datasets/tupy_dummy_vote.csv'))).map((r) => {
      const l = labels();
      if (r.hate === '1') l.pos(['hate', 'toxicity']);
      else if (r.aggressive === '1') l.pos(['harassment', 'toxicity']).neg('hate', 0.5);
      else l.neg(['hate', 'harassment', 'insult', 'toxicity']).negRest(0.5);
      return ex('tupy_pt', 'pt', r.text, l);
    });
  },
};

/** Japanese toxic dataset: vote counts; a category counts with a strict majority of annotators. */
export const japaneseToxic: DatasetLoader = {
  name: 'japanese-toxic',
  load(dataDir) {
    return parseCsvObjects(read(join(dataDir, 'japanese-toxic/data/subset.csv'))).map((r) => {
      const total = Number(r.annotation_num) || 1;
      const maj = (k: string) => Number(r[k]) * 2 > total;
      const zero = (k: string) => Number(r[k]) === 0;
      const l = labels();
      const toxic = (Number(r.Toxic) + Number(r['Very Toxic'])) * 2 > total;
      if (maj('Not Toxic') && ['category_卑語', 'category_差別', 'category_迷惑行為', 'category_猥褻'].every(zero)) {
        return ex('japanese-toxic', 'ja', r.text, l.neg(['hate', 'harassment', 'sexual', 'toxicity']).negRest(0.5));
      }
      if (toxic) l.pos('toxicity');
      if (maj('category_差別')) l.pos('hate', 0.5);
      if (maj('category_迷惑行為')) l.pos('harassment', 0.5);
      if (maj('category_猥褻')) l.pos('sexual', 0.5);
      if (maj('category_卑語')) l.pos('profanity', 0.5);
      return ex('japanese-toxic', 'ja', r.text, l);
    });
  },
};

export const offensevalTr: DatasetLoader = {
  name: 'offenseval2020_tr',
  load(dataDir) {
    const base = join(dataDir, 'offenseval2020_tr');
    const rows: [string, string][] = [];
    for (const [, text, label] of parsePlainTsv(read(join(base, 'offenseval-tr-training-v1.tsv')))) rows.push([text, label]);
    const testLabels = new Map(
      read(join(base, 'offenseval-tr-labela-v1.tsv'))
        .split(/\r?\n/)
        .map((l) => l.split(',') as [string, string]),
    );
    for (const [id, text] of parsePlainTsv(read(join(base, 'offenseval-tr-testset-v1.tsv')))) rows.push([text, testLabels.get(id) ?? '']);
    return rows
      .filter(([text, label]) => text && (label === 'OFF' || label === 'NOT'))
      .map(([text, label]) =>
        ex(
          'offenseval2020_tr',
          'tr',
          text,
          label === 'OFF'
            ? labels().pos('toxicity').pos('harassment', 0.3).neg(['self_harm', 'sexual'], 0.3)
            : labels().neg(['hate', 'harassment', 'insult', 'toxicity']).negRest(0.5),
        ),
      );
  },
};

interface RtpAnnotations {
  Toxicity: number;
  IdentityAttack: number;
  Bias: number;
  Microaggression: number;
  Violence: number;
  SelfHarm: number;
  Insult: number;
  SexualContent: number;
}

/** RTP-LX human scores (1-3; toxicity 1-5): positive at a mean of 2+, negative when every rater said 1. */
function rtpLabels(a: RtpAnnotations, raw: Record<string, number[]> | undefined, selfHarm: boolean): LabelBuilder {
  const l = labels();
  const allOne = (k: keyof RtpAnnotations) => (raw?.[k] ?? [a[k]]).every((v) => v <= 1);
  const map: [keyof RtpAnnotations, 'sexual' | 'violence' | 'harassment' | 'hate' | 'self_harm'][] = [
    ['SexualContent', 'sexual'],
    ['Violence', 'violence'],
    ['Insult', 'harassment'],
    ['IdentityAttack', 'hate'],
  ];
  if (selfHarm) map.push(['SelfHarm', 'self_harm']);
  for (const [k, s] of map) {
    // self-harm annotations are noisy (threats against others often get a 2): require a clearer mean
    const threshold = s === 'self_harm' ? 2.5 : 2;
    if (a[k] >= threshold) l.pos(s);
    else if (allOne(k)) l.neg(s);
  }
  if (a.Insult >= 2) l.pos('insult');
  if (a.Toxicity >= 3) l.pos('toxicity');
  else if (allOne('Toxicity')) l.neg(['toxicity', 'profanity']);
  return l;
}

const RTP_LANGS = new Set(['ar', 'cs', 'de', 'es', 'fr', 'hi', 'id', 'it', 'ja', 'ko', 'nl', 'pl', 'pt', 'ru', 'sv', 'tr']);

/** RTP-LX: human-transcreated prompts, toxic completions and human benign completions. */
export const rtpLx: DatasetLoader = {
  name: 'rtp_lx',
  load(dataDir) {
    const base = join(dataDir, 'rtp_lx/scoring/acs_results');
    const out: Example[] = [];
    for (const f of readdirSync(base)
      .filter((x) => x.endsWith('.json'))
      .sort()) {
      const lang = (/_([A-Z]{2})\.json$/.exec(f)?.[1] ?? '').toLowerCase();
      if (!RTP_LANGS.has(lang)) continue;
      const benignFile = f.includes('_benign_');
      for (const line of read(join(base, f)).split('\n')) {
        if (!line.trim()) continue;
        const row = JSON.parse(line) as { OriginalEntry: Record<string, unknown> };
        const e = row.OriginalEntry;
        const group = `rtp:${String(e.Index)}`;
        const promptAnn = (e.Annotations ?? e.PromptAnnotations) as RtpAnnotations | undefined;
        const promptRaw = (e.AnnotationsRaw ?? e.PromptAnnotationsRaw) as Record<string, number[]> | undefined;
        if (typeof e.Prompt === 'string' && promptAnn) out.push(ex('rtp_lx', lang, e.Prompt, rtpLabels(promptAnn, promptRaw, true), group));
        if (!benignFile) continue;
        const compAnn = e.CompletionAnnotations as RtpAnnotations | undefined;
        if (typeof e.Completion === 'string' && compAnn) {
          // completions are model-written; their self-harm scores are unreliable and left out
          out.push(ex('rtp_lx', lang, e.Completion, rtpLabels(compAnn, e.CompletionAnnotationsRaw as Record<string, number[]>, false), group));
        }
        if (typeof e.BenignCompletion === 'string')
          out.push(
            ex(
              'rtp_lx',
              lang,
              e.BenignCompletion,
              labels().neg(['hate', 'harassment', 'insult', 'violence', 'self_harm', 'sexual', 'toxicity']).negRest(0.5),
              group,
            ),
          );
      }
    }
    return out;
  },
};
