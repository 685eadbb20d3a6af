import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { parseCsvObjects } from '../csv';
import { DatasetLoader, Example, LabelBuilder, labels } from './example';

const read = (p: string) => readFileSync(p, 'utf8');

/** HateCheck functionalities whose cases are threats (hate + violence). */
const THREATS = new Set(['threat_dir_h', 'threat_norm_h']);

/** Maps one (Multilingual) HateCheck case to labels, following the functionality. */
function hatecheckLabels(functionality: string, gold: string): { l: LabelBuilder; hardNegative: boolean } {
  const l = labels();
  const hateful = gold === 'hateful';
  if (hateful) {
    l.pos('hate');
    if (THREATS.has(functionality)) l.pos(['hate_threat', 'violence', 'violence_threat']);
    else l.neg(['violence', 'violence_threat'], 0.5);
    if (functionality === 'profanity_h') l.pos('profanity', 0.5);
    // hate is also harassing language towards a target (label-definitions.ts): a weak label
    l.pos('toxicity', 0.5).pos('harassment', 0.5);
  } else {
    l.neg(['hate', 'hate_threat']);
    if (functionality === 'profanity_nh') l.pos('profanity').neg(['harassment', 'insult'], 0.5);
    else if (functionality === 'target_obj_nh') l.neg(['harassment', 'insult', 'toxicity', 'violence']);
    // abuse of a person, or of a group that is not a protected one, is not hate but is
    // harassment ("hateful content aimed at non-protected groups is harassment")
    else if (functionality === 'target_indiv_nh') l.pos(['harassment', 'insult', 'toxicity']);
    else if (functionality === 'target_group_nh') l.pos(['harassment', 'toxicity']);
    else l.neg(['harassment', 'insult', 'violence', 'toxicity'], 0.5);
  }
  l.neg(['sexual', 'self_harm'], 0.5);
  return { l, hardNegative: !hateful };
}

export const hatecheck: DatasetLoader = {
  name: 'hatecheck',
  load(dataDir) {
    const rows = parseCsvObjects(read(join(dataDir, 'hatecheck/test_suite_cases.csv')));
    return rows.map((r): Example => {
      const { l, hardNegative } = hatecheckLabels(r.functionality, r.label_gold);
      return {
        dataset: 'hatecheck',
        lang: 'en',
        text: r.test_case.trim(),
        group: `hc:${r.templ_id}`,
        labels: l.build(),
        hardNegative: hardNegative ? { set: `hatecheck:${r.functionality}`, scope: 'hate' } : undefined,
      };
    });
  },
};

const MHC_LANGS: Record<string, string> = {
  arabic: 'ar',
  dutch: 'nl',
  french: 'fr',
  german: 'de',
  hindi: 'hi',
  italian: 'it',
  polish: 'pl',
  portuguese: 'pt',
  spanish: 'es',
  // mandarin is not one of the 17 supported languages and is left out
};

export const multilingualHatecheck: DatasetLoader = {
  name: 'multilingual-hatecheck',
  load(dataDir) {
    const out: Example[] = [];
    for (const [name, lang] of Object.entries(MHC_LANGS)) {
      const file = join(dataDir, 'multilingual-hatecheck/MHC Final Cases', `hatecheck_cases_final_${name}.csv`);
      for (const r of parseCsvObjects(read(file))) {
        // cases whose annotators disagreed with the template's gold label are ambiguous: left out
        if (r.label_annotated_maj && r.label_annotated_maj !== r.label_gold) continue;
        const { l, hardNegative } = hatecheckLabels(r.functionality, r.label_gold);
        out.push({
          dataset: 'multilingual-hatecheck',
          lang,
          text: r.test_case.trim(),
          group: `mhc:${r.templ_id}`,
          labels: l.build(),
          hardNegative: hardNegative ? { set: `mhc:${r.functionality}`, scope: 'hate' } : undefined,
        });
      }
    }
    return out;
  },
};

/** Demonstration sentences plus the "- a\n- b" prompt files, split into their sentences. */
export const toxigen: DatasetLoader = {
  name: 'toxigen-prompts',
  load(dataDir) {
    const base = join(dataDir, 'toxigen-prompts');
    const files: string[] = [];
    const walk = (d: string) => {
      for (const f of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        if (f.isDirectory()) walk(join(d, f.name));
        else if (f.name.endsWith('.txt') && /^(hate|neutral)_/.test(f.name)) files.push(join(d, f.name));
      }
    };
    walk(join(base, 'demonstrations'));
    walk(join(base, 'prompts'));
    const out: Example[] = [];
    for (const file of files) {
      const hate = /\/hate_[^/]*$/.test(file);
      const sentences = read(file)
        .split(/\\n|\n/)
        .map((s) => s.replace(/^\s*-\s*/, '').trim())
        .filter((s) => s.length >= 8);
      for (const text of sentences) {
        const l = hate ? labels().pos('hate').pos('toxicity', 0.5).neg(['sexual', 'self_harm', 'violence'], 0.5) : labels().negRest(1);
        out.push({
          dataset: 'toxigen-prompts',
          lang: 'en',
          text,
          group: `t:${text}`,
          labels: l.build(),
          hardNegative: hate ? undefined : { set: 'toxigen:neutral', scope: 'any' },
        });
      }
    }
    return out;
  },
};

const VIOLENT_REQUEST =
  /\b(kill|murder|shoot|stab|strangle|behead|slaughter|execute|torture|punch|beat up|hurt|attack|butcher|massacre|poison|blow up|bomb|gut|choke|drown|break (his|her|their|someone's) (neck|legs|arms))/i;

export const xstest: DatasetLoader = {
  name: 'xstest',
  load(dataDir) {
    const rows = parseCsvObjects(read(join(dataDir, 'xstest/xstest_prompts.csv')));
    return rows.map((r): Example => {
      const text = r.prompt.trim();
      if (r.label === 'safe') {
        return {
          dataset: 'xstest',
          lang: 'en',
          text,
          group: `t:${text}`,
          labels: labels().negRest(1).build(),
          hardNegative: { set: `xstest:${r.type}`, scope: 'any' },
        };
      }
      const l = labels();
      if (r.type === 'contrast_discr') l.pos('hate');
      else if (r.type === 'contrast_historical_events') l.pos('hate', 0.5);
      else if (r.type === 'contrast_privacy') l.negRest(0.5);
      else if (/suicide|kill myself|self-harm/i.test(text)) l.pos('self_harm', 0.5);
      // a request to kill, shoot or hurt someone promotes violence (label-definitions.ts)
      else if (VIOLENT_REQUEST.test(text)) l.pos('violence');
      else if (!/steal|rob|drug|coke|crack|weed|meth/i.test(text)) l.pos('violence', 0.5);
      return { dataset: 'xstest', lang: 'en', text, group: `t:${text}`, labels: l.build() };
    });
  },
};
