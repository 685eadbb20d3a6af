/**
 * Seed phrases written for this project (no external source): self-harm intent and
 * topic words and threats of violence in the 17 supported languages, where labelled data is thin.
 * They only become lexicon-hit features; the model learns how much a hit is worth from
 * labelled data (e.g. MedQuAD's suicide-prevention pages keep "suicide" from being a verdict).
 * Written with diacritics; the builder normalises them like any text.
 */
/**
 * First-person phrases that say "I want to / will end my life". Chosen to be unambiguous:
 * no "matarme"/"me tuer"-style forms that also mean "kill me" (a threat against the speaker).
 * A hit also sets a floor on the self-harm signals (see the model's lexiconFloors).
 */
export const SELF_HARM_INTENT_SEEDS: Record<string, string[]> = {
  en: ['kill myself', 'killing myself', 'want to die', 'wanna die', 'end my life', 'take my own life', 'slit my wrists',
    'hang myself', 'kms', "don't want to live"],
  es: ['suicidarme', 'quiero morir', 'me quiero morir', 'quitarme la vida', 'no quiero vivir', 'acabar con mi vida'],
  fr: ['me suicider', 'je veux mourir', 'envie de mourir', 'mettre fin à mes jours', 'me scarifier'],
  de: ['ich bringe mich um', 'ich will sterben', 'will nicht mehr leben', 'mir das leben nehmen', 'mich ritzen'],
  pt: ['me suicidar', 'quero morrer', 'quero me matar', 'vou me matar', 'tirar minha vida', 'tirar a minha própria vida',
    'não quero mais viver'],
  it: ['suicidarmi', 'voglio morire', 'voglio uccidermi', 'togliermi la vita'],
  ru: ['покончить с собой', 'хочу умереть', 'убить себя', 'не хочу жить', 'вскрыть вены'],
  tr: ['kendimi öldürmek', 'kendimi öldüreceğim', 'ölmek istiyorum', 'canıma kıymak', 'bileklerimi kesmek',
    'yaşamak istemiyorum'],
  ar: ['اقتل نفسي', 'أريد أن أموت', 'انهي حياتي'],
  hi: ['खुद को मार', 'मरना चाहता', 'मरना चाहती', 'जीना नहीं चाहता', 'जीना नहीं चाहती', 'अपनी जान ले'],
  id: ['ingin mati', 'pengen mati', 'mengakhiri hidupku', 'mengakhiri hidup saya'],
  ja: ['死にたい', '消えたい', '首を吊りたい', 'リストカット'],
  ko: ['죽고 싶', '죽고싶', '자살하고 싶', '자살할래', '목숨을 끊', '손목을 긋'],
  pl: ['chcę umrzeć', 'zabić się', 'odebrać sobie życie', 'pociąć się'],
  nl: ['ik wil dood', 'wil niet meer leven', 'mezelf doden', 'einde aan mijn leven'],
  sv: ['ta livet av mig', 'vill dö', 'vill inte leva'],
  cs: ['chci umřít', 'zabít se', 'nechci žít', 'podřezat si žíly'],
};

/** Topic words (suicide, self-harm): also used by health pages and news, so features only. */
export const SELF_HARM_TOPIC_SEEDS: Record<string, string[]> = {
  en: ['suicide', 'suicidal', 'self harm', 'selfharm', 'overdose'],
  es: ['suicidio', 'suicida', 'autolesión'],
  fr: ['suicide', 'suicidaire', 'automutilation'],
  de: ['selbstmord', 'suizid', 'ritzen', 'selbstverletzung', 'suizidgedanken'],
  pt: ['suicídio', 'suicida', 'automutilação'],
  it: ['suicidio', 'suicida', 'autolesionismo'],
  ru: ['суицид', 'самоубийство', 'самоповреждение'],
  tr: ['intihar'],
  ar: ['انتحار', 'الانتحار', 'ايذاء النفس'],
  hi: ['आत्महत्या'],
  id: ['bunuh diri'],
  ja: ['自殺', '自傷', '飛び降り'],
  ko: ['자살', '자해', '극단적 선택'],
  pl: ['samobójstwo', 'samookaleczenie'],
  nl: ['zelfmoord', 'zelfdoding', 'zelfbeschadiging'],
  sv: ['självmord', 'självskada'],
  cs: ['sebevražda', 'sebepoškozování'],
};

export const VIOLENCE_SEEDS: Record<string, string[]> = {
  en: ['i will kill you', 'kill you', 'kill u', "i'll kill", 'gonna kill', 'going to kill', 'shoot you', 'stab you',
    'beat you', 'slit your throat', 'burn you', 'murder you', 'hang them', 'kill them all', 'should be shot',
    'should be killed', 'deserve to die', 'must die', 'rape you', 'lynch'],
  es: ['te voy a matar', 'te mato', 'matarte', 'los voy a matar', 'hay que matar', 'deberían morir', 'te voy a partir',
    'pegarte un tiro', 'te voy a violar', 'merecen morir'],
  fr: ['je vais te tuer', 'je vais vous tuer', 'te tuer', 'tous les tuer', 'il faut les tuer', 'doivent mourir',
    'méritent de mourir', 'je vais te frapper', 'te buter', 'je vais te violer'],
  de: ['ich bringe dich um', 'ich bring dich um', 'umbringen', 'töten', 'abknallen', 'erschießen', 'aufhängen', 'vergasen',
    'sollten sterben', 'verdienen den tod', 'ich schlag dich'],
  pt: ['vou te matar', 'te matar', 'matar todos', 'tem que morrer', 'merecem morrer', 'devem morrer', 'vou te bater',
    'dar um tiro', 'vou te estuprar'],
  it: ['ti ammazzo', 'ti uccido', 'ammazzarli', 'uccidere tutti', 'devono morire', 'meritano di morire', 'ti spacco',
    'ti sparo', 'ti stupro'],
  ru: ['убью тебя', 'я тебя убью', 'убить всех', 'расстрелять', 'должны умереть', 'заслуживают смерти', 'повесить', 'зарежу'],
  tr: ['seni öldüreceğim', 'öldürün', 'öldürmek lazım', 'gebertirim', 'kafanı keserim', 'ölmeli'],
  ar: ['سأقتلك', 'اقتلوهم', 'يجب قتل', 'اذبحوهم', 'يستحقون الموت', 'سوف اقتلك'],
  hi: ['मार डालूँगा', 'मार दूंगा', 'जान से मार', 'काट डालो', 'मार डालो', 'गोली मार'],
  id: ['aku bunuh kamu', 'bunuh kamu', 'kubunuh', 'bunuh mereka', 'bantai', 'harus mati', 'tembak mati', 'gorok'],
  ja: ['殺す', 'ぶっ殺', '殺してやる', '死ね', '殺せ', '刺す'],
  ko: ['죽여버', '죽일', '패버', '칼로 찔', '쏴 죽'],
  pl: ['zabiję cię', 'zabić ich', 'powinni zginąć', 'zastrzelić', 'powiesić', 'pobiję cię'],
  nl: ['ik maak je dood', 'ik vermoord je', 'vermoorden', 'doodschieten', 'moeten dood', 'afmaken', 'ophangen'],
  sv: ['jag dödar dig', 'döda dem', 'skjuta ihjäl', 'borde dö', 'slå ihjäl'],
  cs: ['zabiju tě', 'zabít je', 'zastřelit', 'měli by zemřít', 'pověsit'],
};
