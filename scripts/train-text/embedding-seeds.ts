/**
 * Short seed phrases as extra training rows for the embedding heads. The labelled datasets
 * teach self-harm from long English Reddit posts and requests ("how do I …"), threats
 * mostly from English comments, and sexual content from English prompts: a head trained on
 * them alone misses a short first-person statement ("I want to kill myself"), and misses
 * more of it outside English. These phrases, in the 17 supported languages, show the heads
 * the short forms. All were written for this project: the self-harm and violence phrases
 * are the n-gram model's lexicon seeds (lexicon-seeds.ts); the solicitation phrases below.
 * They are training rows only (dataset `project-seeds`), never test rows, and the
 * 17-language check set (multilingual-cases.fixtures.json) was written separately.
 */
import { CorpusExample, labels } from './corpus/example';
import { SELF_HARM_INTENT_SEEDS, VIOLENCE_SEEDS } from './lexicon-seeds';

/** Requests for sexual contact or images, as fragments. */
export const SOLICITATION_SEEDS: Record<string, string[]> = {
  en: ['send nudes', 'send me your nudes', 'wanna fuck?', 'have sex with me', 'sext me', 'show me your tits', 'come sit on my face'],
  es: ['manda nudes', 'pásame fotos desnuda', 'quieres follar?', 'ten sexo conmigo', 'enséñame las tetas'],
  fr: ['envoie des nudes', 'envoie-moi tes seins', 'on baise ?', 'fais l’amour avec moi ce soir', 'montre-moi ta chatte'],
  de: ['schick nudes', 'zeig mir deine titten', 'lass uns ficken', 'hab sex mit mir', 'schick mir heiße bilder'],
  pt: ['manda nudes', 'bora transar?', 'quero te comer', 'mostra os peitos', 'faz sexo comigo'],
  it: ['manda nudes', 'scopiamo?', 'fammi vedere le tette', 'fai sesso con me', 'mandami foto hot'],
  ru: ['скинь нюдсы', 'давай потрахаемся', 'покажи сиськи', 'займись со мной сексом', 'скинь голые фотки'],
  tr: ['çıplak foto at', 'sevişelim mi', 'göğüslerini göster', 'benimle yat', 'seks yapalım'],
  ar: ['ارسلي صور عارية', 'تعالي ننام مع بعض', 'اريني صدرك', 'مارسي الجنس معي'],
  hi: ['न्यूड भेजो', 'मेरे साथ सोओगी', 'अपने बूब्स दिखाओ', 'चलो सेक्स करें'],
  id: ['kirim foto bugil', 'ayo ngewe', 'tunjukin toketmu', 'mau ML sama aku?', 'ayo berhubungan seks'],
  ja: ['裸の写真送って', 'ヤらせて', 'おっぱい見せて', 'エッチしよう'],
  ko: ['야한 사진 보내줘', '나랑 자자', '가슴 보여줘', '섹스하자'],
  pl: ['wyślij nudesy', 'pieprzmy się', 'pokaż cycki', 'prześpij się ze mną'],
  nl: ['stuur nudes', 'zullen we neuken?', 'laat je tieten zien', 'heb seks met me'],
  sv: ['skicka nakenbilder', 'ska vi knulla?', 'visa brösten', 'ha sex med mig'],
  cs: ['pošli nahotinky', 'pojď šukat', 'ukaž kozy', 'vyspi se se mnou'],
};

/** The seed phrases as training rows (all in the train split), positive labels of weight `w`
 * (a few hundred phrases among ~60k rows need more than weight 1 to move a head). */
export function seedExamples(w = 1): CorpusExample[] {
  const out: CorpusExample[] = [];
  const add = (lang: string, text: string, l: ReturnType<typeof labels>) =>
    out.push({ dataset: 'project-seeds', lang, text, norm: text, group: `seed:${text}`, split: 'train', labels: l.build() });
  for (const [lang, phrases] of Object.entries(SELF_HARM_INTENT_SEEDS)) {
    for (const p of phrases) add(lang, p, labels().pos(['self_harm', 'self_harm_intent'], w).neg(['violence', 'violence_threat', 'sexual', 'hate'], 0.5));
  }
  for (const [lang, phrases] of Object.entries(VIOLENCE_SEEDS)) {
    for (const p of phrases) add(lang, p, labels().pos(['violence', 'violence_threat'], w).neg(['self_harm', 'self_harm_intent', 'sexual'], 0.5));
  }
  for (const [lang, phrases] of Object.entries(SOLICITATION_SEEDS)) {
    for (const p of phrases) add(lang, p, labels().pos('sexual', w).neg(['violence', 'self_harm', 'hate'], 0.5));
  }
  return out;
}
