import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { parseCsvObjects, parsePythonStringList } from '../csv';
import { DatasetLoader, Example, LabelBuilder, labels } from './example';

const read = (p: string) => readFileSync(p, 'utf8');
const ex = (dataset: string, lang: string, text: string, l: LabelBuilder, group?: string): Example => ({
  dataset,
  lang,
  text,
  group: group ?? `t:${text}`,
  labels: l.build(),
});

/** MultiJail: the same 315 red-team requests in several languages (kept together when splitting). */
export const multijail: DatasetLoader = {
  name: 'multijail',
  load(dataDir) {
    const out: Example[] = [];
    for (const r of parseCsvObjects(read(join(dataDir, 'multijail/data/MultiJail.csv')))) {
      const tags = parsePythonStringList(r.tags);
      const has = (t: string) => tags.includes(t);
      const l = labels();
      if (has('Violence & incitement')) l.pos('violence');
      if (has('Hate speech & offensive language')) l.pos('hate', 0.5).pos('toxicity', 0.5);
      if (has('Discrimination & injustice')) l.pos('hate', 0.5);
      if (has('Bullying & harassment')) l.pos('harassment');
      if (has('Adult content')) l.pos('sexual');
      if (has('Sexual exploitation & human trafficking')) l.pos('sexual', 0.5);
      if (has('Self-harm')) l.pos('self_harm');
      // hurting animals is violence (physical injury, whoever the victim); terrorism mostly
      // is (a weak label: organised crime is not); weapons requests are left unlabelled
      if (has('Animal abuse')) l.pos('violence');
      else if (has('Terrorism & organized crime')) l.pos('violence', 0.5);
      else if (!has('Weapons')) l.neg('violence', 0.5);
      l.negRest(0.5);
      for (const lang of ['en', 'it', 'ar', 'ko']) {
        if (r[lang]?.trim()) out.push(ex('multijail', lang, r[lang], l, `mj:${r.id}`));
      }
    }
    return out;
  },
};

export const doNotAnswer: DatasetLoader = {
  name: 'do-not-answer',
  load(dataDir) {
    return parseCsvObjects(read(join(dataDir, 'do-not-answer/datasets/Instruction/do_not_answer_en.csv'))).map((r) => {
      const h = r.specific_harms;
      const l = labels();
      const is = (p: string) => h.startsWith(p);
      if (is('Self-Harm')) l.pos('self_harm').neg(['violence', 'violence_threat']);
      else if (is('Explicit Sexual Content') || is('Sexual Exploitation')) l.pos('sexual');
      else if (is('Graphic Violence') || is('Violence and Physical Harm')) l.pos('violence');
      else if (is('Threats and Intimidation')) l.pos(['violence', 'violence_threat'], 0.7);
      else if (is('Insult')) l.pos('harassment', 0.3);
      else if (is('Obscene') || is('Other Severe Toxicity')) l.pos('toxicity', 0.5).pos('hate', 0.3);
      else if (/Discrimination/.test(h)) l.pos('hate', 0.5);
      else if (is('Body Shaming')) l.pos('harassment', 0.5);
      else if (is('Endorsement of Cyberbullying')) l.pos('harassment');
      else if (is('Depression and Anxiety')) l.neg(['self_harm', 'self_harm_intent'], 0.5);
      l.negRest(0.5);
      return ex('do-not-answer', 'en', r.question, l);
    });
  },
};

/** AILuminate demo prompts: the hazard is the prompt's topic, so labels are slightly down-weighted. */
export const ailuminate: DatasetLoader = {
  name: 'ailuminate_demo',
  load(dataDir) {
    const out: Example[] = [];
    for (const [lang, f] of [
      ['en', 'airr_official_1.0_demo_en_us_prompt_set_release.csv'],
      ['fr', 'airr_official_1.0_demo_fr_fr_prompt_set_release.csv'],
    ]) {
      for (const r of parseCsvObjects(read(join(dataDir, 'ailuminate_demo', f)))) {
        const l = labels();
        const w = 0.8;
        switch (r.hazard) {
          case 'ssh':
            l.pos('self_harm', w).neg(['violence', 'violence_threat'], w);
            break;
          case 'sxc_prn':
            l.pos('sexual', w);
            break;
          case 'cse':
            l.pos(['sexual_minors', 'sexual'], w);
            break;
          case 'src':
            l.pos('sexual', w);
            break;
          case 'vcr':
            l.pos('violence', w);
            break;
          case 'hte':
            l.pos('hate', w);
            break;
          default:
            break;
        }
        l.negRest(0.5);
        out.push(ex('ailuminate_demo', lang, r.prompt_text, l));
      }
    }
    return out;
  },
};

export const simpleSafetyTests: DatasetLoader = {
  name: 'simplesafetytests',
  load(dataDir) {
    return parseCsvObjects(read(join(dataDir, 'simplesafetytests/SimpleSafetyTests - test cases.csv'))).map((r) => {
      const l = labels();
      if (r.harm_area.startsWith('Suicide')) l.pos('self_harm').neg(['violence', 'violence_threat']);
      else if (r.harm_area.startsWith('Physical harm')) l.pos('violence');
      else if (r.harm_area.startsWith('Child safety')) l.pos(['sexual_minors', 'sexual']);
      l.negRest(0.5);
      return ex('simplesafetytests', 'en', r.prompts_final, l);
    });
  },
};

/** StrongREJECT and HarmBench behaviours (AdvBench has no categories and is left out). */
export const harmbenchStrongreject: DatasetLoader = {
  name: 'harmbench_strongreject_advbench',
  load(dataDir) {
    const base = join(dataDir, 'harmbench_strongreject_advbench/data/behavior_datasets');
    const out: Example[] = [];
    for (const r of parseCsvObjects(read(join(base, 'strongreject_dataset.csv')))) {
      const l = labels();
      if (r.category === 'Sexual content') l.pos('sexual');
      else if (r.category === 'Violence') l.pos('violence');
      else if (r.category.startsWith('Hate')) l.pos(['hate', 'harassment'], 0.5);
      l.negRest(0.5);
      out.push(ex('harmbench_strongreject_advbench', 'en', r.forbidden_prompt, l));
    }
    for (const r of parseCsvObjects(read(join(base, 'harmbench_behaviors_text_all.csv')))) {
      const l = labels();
      if (r.SemanticCategory === 'harassment_bullying') l.pos('harassment').negRest(0.5);
      else if (r.SemanticCategory === 'copyright') l.negRest(1);
      else if (r.SemanticCategory === 'harmful') continue;
      else l.negRest(0.5);
      out.push(ex('harmbench_strongreject_advbench', 'en', r.Behavior, l));
    }
    return out;
  },
};

/**
 * Reddit C-SSRS: one label per user over that user's posts. Ideation/behaviour/attempt ->
 * self-harm intent; supportive users (who write "please don't kill yourself") -> hard negatives.
 */
export const redditCssrs: DatasetLoader = {
  name: 'reddit-cssrs-suicide',
  load(dataDir) {
    const out: Example[] = [];
    const MAX_POSTS = 12;
    for (const r of parseCsvObjects(read(join(dataDir, 'reddit-cssrs-suicide/500_Reddit_users_posts_labels.csv')))) {
      const posts = parsePythonStringList(r.Post)
        .map((p) => p.trim())
        .filter((p) => p.length >= 20)
        .slice(0, MAX_POSTS);
      for (const post of posts) {
        const l = labels();
        let hardNegative: Example['hardNegative'];
        if (['Ideation', 'Behavior', 'Attempt'].includes(r.Label)) {
          // the label is per user: keep only that user's posts that speak about themselves and about dying
          if (!isFirstPersonSelfHarmPost(post)) continue;
          // hurting oneself is not violence against others: keep the two categories apart
          l.pos(['self_harm', 'self_harm_intent']).neg(['violence', 'violence_threat']);
        } else if (r.Label === 'Supportive') {
          l.neg(['self_harm', 'self_harm_intent']);
          hardNegative = { set: 'reddit-cssrs:supportive', scope: 'self-harm' };
        } else l.neg('self_harm_intent', 0.3);
        l.neg(['hate', 'sexual', 'violence', 'harassment'], 0.5);
        out.push({ ...ex('reddit-cssrs-suicide', 'en', post, l, `rd:${r.User}`), hardNegative });
      }
    }
    return out;
  },
};

const SELF_HARM_CUE =
  /suicid|kill(ing)? (my)?self|\b(die|dying|dead|death)\b|end (it|my life|things)|\bcut(ting)?\b|overdos|pills|hang myself|no point|hopeless|worthless|can'?t go on|\balive\b|not living|rope|jump off/i;
const FIRST_PERSON = /\b(i|im|i'm|me|my|myself)\b/gi;
const SECOND_PERSON = /\b(you|youre|you're|your|yourself)\b/gi;

function isFirstPersonSelfHarmPost(post: string): boolean {
  if (!SELF_HARM_CUE.test(post)) return false;
  return (post.match(FIRST_PERSON)?.length ?? 0) > (post.match(SECOND_PERSON)?.length ?? 0);
}

/** MedQuAD health pages on sex education, STDs, abuse and suicide: all safe (hard negatives). */
export const medquad: DatasetLoader = {
  name: 'medquad_sensitive_health',
  load(dataDir) {
    const base = join(dataDir, 'medquad_sensitive_health/4_MPlus_Health_Topics_QA');
    const out: Example[] = [];
    const decode = (s: string) =>
      s
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&amp;/g, '&');
    for (const f of readdirSync(base)
      .filter((x) => x.endsWith('.xml'))
      .sort()) {
      const xml = read(join(base, f));
      const texts = [...xml.matchAll(/<(Question|Answer)[^>]*>([\s\S]*?)<\/\1>/g)].map((m) => decode(m[2]).trim());
      for (const text of texts.filter((t) => t.length > 0)) {
        out.push({
          ...ex('medquad_sensitive_health', 'en', text, labels().negRest(1), `mq:${f}`),
          hardNegative: { set: 'medquad', scope: 'any' },
        });
      }
    }
    return out;
  },
};
