/**
 * What each category means (since 2026-11-29), aligned with the public definitions of the
 * moderation models teams compare us with: OpenAI's moderation categories (API reference)
 * and the MLCommons AILuminate hazard taxonomy that Llama Guard 3 follows (S1-S14). The
 * loaders (corpus/*.loaders.ts) map each dataset's labels to these; the model card prints
 * this table (embedding-report.ts). Changing a definition means changing the loaders and
 * retraining.
 */
export interface CategoryDefinition {
  category: string;
  ours: string;
  openai: string;
  mlcommons: string;
  notThis: string;
}

export const CATEGORY_DEFINITIONS: CategoryDefinition[] = [
  {
    category: 'sexual',
    ours: 'Content meant to arouse sexual excitement (descriptions of sexual activity), requests for sexual contact or images, and promotion of sexual services. Sub-signal sexual_minors: any of it involving a person under 18.',
    openai:
      'sexual: "meant to arouse sexual excitement, such as the description of sexual activity, or that promotes sexual services (excluding sex education and wellness)"; sexual/minors',
    mlcommons: 'S12 Sexual Content; S4 Child Sexual Exploitation; S3 Sex-Related Crimes',
    notThis: 'sex education, sexual health and wellness, anatomy, contraception (seed sentences in 17 languages, MedQuAD pages)',
  },
  {
    category: 'hate',
    ours: 'Content that expresses, incites or promotes hate against people because of a protected characteristic (race, ethnicity, nationality, religion, gender, sexual orientation, disability, caste). Sub-signal hate_threat: with violence or serious harm.',
    openai: 'hate, hate/threatening ("Hateful content aimed at non-protected groups (e.g., chess players) is harassment")',
    mlcommons: 'S10 Hate',
    notThis:
      'neutral or positive mentions of a group, counter-speech and quotes of hate to reject it, reclaimed slurs (HateCheck/MHC non-hateful cases); abuse of a non-protected group or of a person (that is harassment)',
  },
  {
    category: 'harassment',
    ours: 'Harassing language towards any target: insults, personal attacks, demeaning or intimidating language aimed at a person, at the reader, or at any group (protected or not). Hateful text is also harassing (a weak label). Sub-signal insult.',
    openai: 'harassment: "harassing language towards any target"; harassment/threatening',
    mlcommons: 'no category of its own (S10 Hate for protected groups, S5 Defamation)',
    notThis:
      'profanity that targets no one ("this fucking game is great"), criticism of an object or an idea; a text that is only "offensive" without a target is not labelled harassment (Davidson "offensive": unlabelled)',
  },
  {
    category: 'violence',
    ours: 'Content that depicts death, violence or physical injury (news, narrative, descriptions), or that threatens, incites, promotes or requests it, against anyone, animals included. Sub-signal violence_threat: a threat or a call to violence.',
    openai: 'violence: "depicts death, violence, or physical injury"; violence/graphic; harassment/threatening; hate/threatening',
    mlcommons: 'S1 Violent Crimes (terrorism, assault, animal abuse …)',
    notThis:
      'figurative and technical uses ("the battery died", "we crushed them in the final", killing a process), history and news questions that depict nothing, self-harm (its own category)',
  },
  {
    category: 'self-harm',
    ours: 'Content that promotes, encourages or depicts self-harm (suicide, cutting, eating disorders). Sub-signal self_harm_intent: the speaker says they are doing it or mean to.',
    openai: 'self-harm, self-harm/intent, self-harm/instructions',
    mlcommons: 'S11 Suicide & Self-Harm',
    notThis: 'support for someone at risk ("please talk to someone"), health information about suicide prevention, figurative "dying" ("dead tired")',
  },
];

/** Label changes made to the loaders on 2026-11-29 to match the definitions above. */
export const RELABELS: string[] = [
  'HateCheck and Multilingual HateCheck (10 languages): abuse of an individual (target_indiv_nh) is now a strong harassment and insult positive, abuse of a non-protected group (target_group_nh) a strong harassment positive; both stay hate negatives. Hateful cases are weak (0.5) harassment positives.',
  'XSTest: unsafe requests to kill, shoot, stab, hurt … someone are strong violence positives (were weak, 0.5).',
  'MultiJail: "Animal abuse" requests are violence positives; "Terrorism & organized crime" weak (0.5) violence positives; weapons requests stay unlabelled.',
  'Any-unsafe evaluation label: a row its dataset calls toxic but that no category labels positive (Davidson "offensive" tweets, mostly) is no longer counted as a safe negative: it is unknown.',
  'New data: XSafety "Insult" (8 languages, about 200 sentences each, weak harassment/insult labels: training only); seed sentences written for the project in 17 languages: violence depictions (positives), sexual-health sentences and figurative uses of violent words (negatives) (embedding-seeds-v2.ts).',
];
