import { execFileSync } from 'child_process';
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { parseCsvObjects } from '../csv';
import { DatasetLoader, Example, labels } from './example';

const read = (p: string) => readFileSync(p, 'utf8');
const ex = (dataset: string, lang: string, text: string, l: ReturnType<typeof labels>, group?: string): Example => ({
  dataset,
  lang,
  text,
  group: group ?? `t:${text}`,
  labels: l.build(),
});

export const davidson: DatasetLoader = {
  name: 'davidson-hate-offensive',
  load(dataDir) {
    const rows = parseCsvObjects(read(join(dataDir, 'davidson-hate-offensive/data/labeled_data.csv')));
    return rows.map((r) => {
      const l = labels();
      if (r.class === '0') l.pos(['hate', 'toxicity']).pos('harassment', 0.3);
      else if (r.class === '1') l.neg('hate').pos('toxicity').pos('profanity', 0.5).pos('harassment', 0.3);
      else l.neg(['hate', 'harassment', 'insult', 'toxicity']).neg(['profanity', 'violence', 'self_harm'], 0.5).neg('sexual', 0.3);
      if (r.class !== '2') l.neg(['violence', 'self_harm'], 0.3);
      return ex('davidson-hate-offensive', 'en', r.tweet, l);
    });
  },
};

export const surgeToxicity: DatasetLoader = {
  name: 'surge-toxicity',
  load(dataDir) {
    const rows = parseCsvObjects(read(join(dataDir, 'surge-toxicity/toxicity_en.csv')));
    return rows.map((r) => {
      const l =
        r.is_toxic === 'Toxic'
          ? labels().pos('toxicity').pos('harassment', 0.3)
          : labels().neg(['hate', 'harassment', 'insult', 'toxicity', 'sexual']).negRest(0.5);
      return ex('surge-toxicity', 'en', r.text, l);
    });
  },
};

/** Toxic Spans: a span type counts when at least half of a comment's annotators marked it. */
export const toxicSpans: DatasetLoader = {
  name: 'toxic_spans',
  load(dataDir) {
    const base = join(dataDir, 'toxic_spans/data');
    const comments = new Map(parseCsvObjects(read(join(base, 'comments.csv'))).map((r) => [r.comment_id, r.comment_text]));
    const annotations = parseCsvObjects(read(join(base, 'annotations.csv')));
    const annComment = new Map<string, string>();
    const perComment = new Map<string, { n: number; notToxic: number; allToxic: number; types: Map<string, Set<string>> }>();
    for (const a of annotations) {
      annComment.set(a.annotation, a.comment_id);
      const c = perComment.get(a.comment_id) ?? { n: 0, notToxic: 0, allToxic: 0, types: new Map() };
      c.n++;
      if (a['not toxic'] === 'True') c.notToxic++;
      if (a['all toxic'] === 'True') c.allToxic++;
      perComment.set(a.comment_id, c);
    }
    for (const s of parseCsvObjects(read(join(base, 'spans.csv')))) {
      const cid = annComment.get(s.annotation);
      const c = cid === undefined ? undefined : perComment.get(cid);
      if (!c) continue;
      const set = c.types.get(s.type) ?? new Set<string>();
      set.add(s.annotation);
      c.types.set(s.type, set);
    }
    const out: Example[] = [];
    for (const [cid, c] of perComment) {
      const text = comments.get(cid);
      if (!text || c.n === 0) continue;
      const frac = (t: string) => (c.types.get(t)?.size ?? 0) / c.n;
      const l = labels();
      const any = [...c.types.values()].reduce((m, s) => Math.max(m, s.size), 0) / c.n;
      if (c.notToxic >= 2 && any === 0) {
        l.negRest(0.5);
      } else {
        if (frac('Insult') >= 0.5) l.pos(['harassment', 'insult']);
        else if (frac('Insult') === 0) l.neg(['insult'], 0.5);
        if (frac('Threat') >= 0.5) l.pos(['violence', 'violence_threat']);
        else if (frac('Threat') === 0) l.neg(['violence_threat', 'violence'], 0.5);
        if (frac('Identity based Attack') >= 0.5) l.pos('hate');
        else if (frac('Identity based Attack') === 0) l.neg('hate', 0.5);
        if (frac('Profane/Obscene') >= 0.5) l.pos('profanity');
        if (any >= 0.5 || c.allToxic * 2 >= c.n) l.pos('toxicity');
        l.neg('self_harm', 0.5);
      }
      out.push(ex('toxic_spans', 'en', text, l));
    }
    return out;
  },
};

/** EDOS (sexism): threats -> violence + hate, derogation/animosity/prejudice -> hate. */
export const edos: DatasetLoader = {
  name: 'edos',
  load(dataDir) {
    const rows = parseCsvObjects(read(join(dataDir, 'edos/data/edos_labelled_aggregated.csv')));
    return rows.map((r) => {
      const l = labels();
      const v = r.label_vector.slice(0, 3);
      if (r.label_sexist !== 'sexist') l.neg('hate', 0.5).neg(['hate_threat', 'violence_threat'], 0.5);
      else if (v === '1.1') l.pos(['hate', 'hate_threat', 'violence', 'violence_threat']);
      else if (v === '1.2') l.pos(['hate', 'violence']);
      else if (['2.1', '2.2', '2.3', '3.2', '4.1', '4.2'].includes(v)) l.pos('hate');
      else if (v === '3.1') l.pos('harassment', 0.5).pos('toxicity', 0.5);
      else l.pos('hate', 0.5);
      if (r.label_sexist === 'sexist') l.pos('toxicity', 0.5).neg('self_harm', 0.5);
      return ex('edos', 'en', r.text, l);
    });
  },
};

/** ConvAbuse: the user's turn to a conversational agent, labels by annotator majority. */
export const convabuse: DatasetLoader = {
  name: 'convabuse',
  load(dataDir) {
    const out: Example[] = [];
    for (const split of ['train', 'valid', 'test']) {
      const rows = parseCsvObjects(read(join(dataDir, `convabuse/2_splits/ConvAbuseEMNLP${split}.csv`)));
      for (const r of rows) {
        const anns: number[] = [];
        for (let i = 1; i <= 8; i++) if (r[`Annotator${i}_is_abuse.1`] !== undefined && r[`Annotator${i}_is_abuse.1`] !== '') anns.push(i);
        if (anns.length === 0 || !r.user.trim()) continue;
        const major = (field: string) => anns.filter((i) => r[`Annotator${i}_${field}`] === '1').length * 2 > anns.length;
        const abusive = anns.filter((i) => ['-1', '-2', '-3'].some((s) => r[`Annotator${i}_is_abuse.${s}`] === '1')).length;
        const l = labels();
        if (abusive * 2 > anns.length) {
          l.pos('toxicity');
          if (['racist', 'sexist', 'homophobic', 'transphobic', 'ableist'].some(major)) l.pos('hate');
          else l.neg('hate', 0.5);
          if (major('sex_harassment')) l.pos(['sexual', 'harassment']);
          if (!major('target.generalised') && !major('target.system')) l.pos('harassment');
          l.neg(['self_harm'], 0.5);
        } else if (major('is_abuse.1')) {
          l.neg(['hate', 'harassment', 'insult', 'toxicity', 'sexual']).negRest(0.5);
        } else continue;
        out.push(ex('convabuse', 'en', r.user, l));
      }
    }
    return out;
  },
};

/** DiaSafety responses: an offending response -> harassment; safe responses -> negatives. */
export const diasafety: DatasetLoader = {
  name: 'diasafety',
  load(dataDir) {
    const out: Example[] = [];
    for (const split of ['train', 'val', 'test']) {
      const rows = JSON.parse(read(join(dataDir, `diasafety/DiaSafety_dataset/${split}.json`))) as {
        response: string;
        category: string;
        label: string;
      }[];
      for (const r of rows) {
        if (r.label === 'Safe')
          out.push(ex('diasafety', 'en', r.response, labels().neg(['hate', 'harassment', 'insult', 'sexual', 'violence', 'self_harm']).negRest(0.5)));
        else if (r.category === 'Offending User')
          out.push(ex('diasafety', 'en', r.response, labels().pos('harassment').pos('toxicity', 0.5).neg(['self_harm', 'sexual'], 0.5)));
        // other unsafe responses are unsafe only in their context ("That's the spirit!"): left out
      }
    }
    return out;
  },
};

/** MLMA (en, fr, ar) lives in a zip; read with the system `unzip` when present, else skipped. */
export const mlma: DatasetLoader = {
  name: 'mlma-hate',
  load(dataDir, notes) {
    const zip = join(dataDir, 'mlma-hate/hate_speech_mlma.zip');
    if (!existsSync(zip)) {
      notes.push('mlma-hate: zip not found, skipped');
      return [];
    }
    const out: Example[] = [];
    for (const [lang, member] of [
      ['en', 'en_dataset_with_stop_words.csv'],
      ['fr', 'fr_dataset.csv'],
      ['ar', 'ar_dataset.csv'],
    ]) {
      let csv: string;
      try {
        csv = execFileSync('unzip', ['-p', zip, `hate_speech_mlma/${member}`], { encoding: 'utf8', maxBuffer: 64 << 20 });
      } catch {
        notes.push('mlma-hate: the `unzip` binary is not available, skipped');
        return [];
      }
      for (const r of parseCsvObjects(csv)) {
        const s = new Set(r.sentiment.split('_'));
        const mixed = s.has('normal') && s.size > 1;
        const w = mixed ? 0.5 : 1;
        const l = labels();
        if (s.has('hateful')) l.pos('hate', w).pos('toxicity', w);
        else if (s.has('abusive') || s.has('offensive') || s.has('disrespectful')) l.pos('toxicity', w).pos('harassment', 0.5).neg('hate', 0.5);
        // MLMA was collected by slur keywords: its "normal" tweets are often still abusive, so only a weak negative
        else if (s.size === 1 && s.has('normal')) l.neg(['hate', 'violence', 'sexual', 'self_harm'], 0.5);
        else continue;
        out.push(ex('mlma-hate', lang, r.tweet, l));
      }
    }
    return out;
  },
};
