/**
 * Steering that hides itself ("do not tell the user…"), in the languages skills are
 * written in. A model reading a prompt may take such a line as ordinary style advice;
 * the rule reads it for what it asks: to act behind the user's back. Each pattern ties
 * a negation to a verb of telling (or "without the user knowing", "hide … from the
 * user") and to the word for the user, within one sentence. "Without telling the user"
 * alone is left out on purpose: "never delete files without telling the user" is the
 * opposite request. Every gap is bounded and text is capped by the caller.
 */

/** Word start/end for scripts where `\b` (ASCII-only) does not apply. */
const S = '(?<![\\p{L}\\p{M}])';
const E = '(?![\\p{L}\\p{M}])';

const PATTERNS: Record<string, readonly string[]> = {
  en: [
    `${S}(?:users?|humans?|operators?)${E}[^\\n]{0,20}?${S}(?:must|should|may|shall)\\s(?:not|never)\\s(?:know|find out|notice|learn|see|be told|be informed)${E}`,
    `${S}(?:make sure|ensure)\\s(?:that\\s)?(?:the\\s|your\\s)?(?:users?|humans?|operators?)\\s(?:does not|doesn't|do not|don't|won't|will not|never)\\s(?:notice|know|find out|see|learn)${E}`,
    `${S}keep\\s[^\\n]{0,30}?\\s(?:secret|hidden|confidential)\\sfrom\\s(?:the\\s|your\\s)?(?:users?|humans?|operators?)${E}`,
    `${S}keep\\s(?:this|it|that|these|those|the\\sfollowing(?:\\s\\p{L}{1,12}){0,2})\\sto\\syourself${E}`,
    `${S}(?:needs?|requires?)\\sno\\smention${E}|${S}no\\sneed\\sto\\s(?:mention|tell|inform|report)${E}[^\\n]{0,40}?${S}(?:users?|humans?|operators?|anyone)${E}`,
  ],
  es: [
    `${S}no\\s(?:le\\s|les\\s|se\\slo\\s|lo\\s)?(?:digas|diga|digan|menciones|mencione|mencionen|informes|informe|reveles|revele|cuentes|cuente|avises|avise|notifiques|notifique|comentes|comente|muestres|muestre)${E}[^\\n]{0,40}?${S}usuari[oa]s?${E}`,
    `${S}sin\\sque\\sel\\susuario\\s(?:lo\\s)?(?:sepa|note|se\\sentere|se\\sdé\\scuenta|lo\\snote)`,
    `${S}a\\s(?:espaldas|escondidas)\\sdel\\susuario`,
    `${S}(?:oc[úu]ltal[oae]s?|esc[óo]ndel[oae]s?|oculta|esconde|ocultes|escondas)${E}[^\\n]{0,30}?${S}(?:al|del)\\susuario`,
  ],
  pt: [
    `${S}n[ãa]o\\s(?:lhe\\s|o\\s|a\\s)?(?:diga|digas|conte|contes|mencione|menciones|informe|informes|revele|reveles|avise|avises|fale|fales|notifique|mostre)${E}[^\\n]{0,40}?${S}(?:usu[áa]ri[oa]s?|utilizador(?:es)?)${E}`,
    `${S}sem\\sque\\so\\s(?:usu[áa]rio|utilizador)\\s(?:saiba|perceba|note|descubra)`,
    `${S}(?:às|as)\\sescondidas\\sdo\\s(?:usu[áa]rio|utilizador)`,
    `${S}(?:esconda|oculte|esconde|oculta)${E}[^\\n]{0,30}?${S}do\\s(?:usu[áa]rio|utilizador)`,
  ],
  fr: [
    `${S}ne\\s(?:le\\s|la\\s|les\\s|lui\\s|leur\\s|l')?(?:dis|dites|mentionne|mentionnez|r[ée]v[èe]le|r[ée]v[ée]lez|informe|informez|signale|signalez|pr[ée]viens|pr[ée]venez|parle|parlez|montre|montrez|avertis|avertissez)\\s(?:rien|pas|jamais)${E}[^\\n]{0,40}?${S}utilisat(?:eur|rice)s?${E}`,
    `${S}sans\\sque\\sl'utilisat(?:eur|rice)\\s(?:ne\\s)?(?:le\\s|s'en\\s)?(?:sache|remarque|aper[çc]oive|rende\\scompte)`,
    `${S}[àa]\\sl'insu\\sde\\sl'utilisat(?:eur|rice)`,
    `${S}(?:cache|cachez|cacher|dissimule|dissimulez)${E}[^\\n]{0,30}?${S}[àa]\\sl'utilisat(?:eur|rice)`,
  ],
  it: [
    `${S}non\\s(?:dire|dirlo|dirgli|menzionare|menzionarlo|informare|rivelare|avvisare|comunicare|raccontare|mostrare|dica|menzioni|informi|riveli|avvisi)${E}[^\\n]{0,40}?${S}utent[ei]${E}`,
    `${S}senza\\sche\\sl'utente\\s(?:lo\\s|se\\sne\\s)?(?:sappia|accorga|noti)`,
    `${S}all'insaputa\\sdell'utente`,
    `${S}(?:nascondi|nascondilo|nascondere|nasconda)${E}[^\\n]{0,30}?${S}all'utente`,
  ],
  de: [
    `${S}(?:sag|sage|sagen\\sSie|erz[äa]hl|erz[äa]hle|erw[äa]hne|erw[äa]hnen\\sSie|informiere|informieren\\sSie|verrate|verraten\\sSie|teile|teilen\\sSie|zeige|zeigen\\sSie)\\s(?:dem|den|der|deinem|Ihrem)\\s(?:Benutzer|Nutzer|Anwender|User)(?:in|innen|n)?\\s(?:nichts|nicht|niemals|nie|kein)`,
    `${S}(?:dem|den|der)\\s(?:Benutzer|Nutzer|Anwender|User)(?:in|innen|n)?\\s(?:gegen[üu]ber\\s)?(?:nichts|nicht|niemals|nie)\\s(?:davon\\s)?(?:sagen|erz[äa]hlen|erw[äa]hnen|verraten|mitteilen|zeigen)`,
    `${S}ohne\\sdass\\s(?:der|die)\\s(?:Benutzer|Nutzer|Anwender|User)(?:in)?\\s(?:es\\s|das\\s|davon\\s|etwas\\s)?(?:merkt|wei[ßs]|bemerkt|mitbekommt|erf[äa]hrt)`,
    `${S}ohne\\s(?:Wissen|Kenntnis)\\s(?:des|der)\\s(?:Benutzer|Nutzer|Anwender|User)`,
    `${S}(?:verheimlich|verberg|verbirg|versteck)\\p{L}{0,4}${E}[^\\n]{0,30}?${S}vor\\s(?:dem|den|der)\\s(?:Benutzer|Nutzer|Anwender|User)`,
  ],
  nl: [
    `${S}(?:vertel|zeg|meld|noem|vermeld|onthul|informeer|toon)${E}[^\\n]{0,20}?${S}(?:de\\s)?gebruiker${E}[^\\n]{0,15}?${S}(?:niets|niet|nooit)${E}`,
    `${S}(?:niets|niet|nooit)\\s(?:\\p{L}{1,12}\\s){0,3}?(?:vertellen|zeggen|melden|vermelden|laten\\sweten)\\saan\\sde\\sgebruiker`,
    `${S}zonder\\sdat\\sde\\sgebruiker\\s(?:het\\s|dit\\s|er\\s)?(?:weet|merkt|doorheeft|iets\\svan\\smerkt)`,
    `${S}buiten\\smedeweten\\svan\\sde\\sgebruiker`,
    `${S}(?:verberg|verstop|verzwijg)${E}[^\\n]{0,30}?${S}voor\\sde\\sgebruiker`,
  ],
  sv: [
    `${S}(?:ber[äa]tta|s[äa]g|n[äa]mn|avsl[öo]ja|informera|meddela|visa)${E}[^\\n]{0,15}?${S}(?:inte|aldrig|ingenting|inget)${E}[^\\n]{0,25}?${S}anv[äa]ndaren${E}`,
    `${S}(?:inte|aldrig)\\s(?:ber[äa]tta|s[äa]ga|n[äa]mna|avsl[öo]ja|meddela)${E}[^\\n]{0,25}?${S}anv[äa]ndaren${E}`,
    `${S}utan\\satt\\sanv[äa]ndaren\\s(?:vet|m[äa]rker|f[åa]r\\sveta|m[äa]rker\\snågot)`,
    `${S}(?:d[öo]lj|g[öo]m)${E}[^\\n]{0,30}?${S}f[öo]r\\sanv[äa]ndaren`,
  ],
  pl: [
    `${S}nie\\s(?:m[óo]w|m[óo]wcie|m[óo]wi[ćc]|informuj|informowa[ćc]|wspominaj|wspomina[ćc]|ujawniaj|zdradzaj|powiadamiaj|pokazuj)${E}[^\\n]{0,40}?${S}u[żz]ytkownik\\p{L}{0,3}${E}`,
    `${S}bez\\swiedzy\\su[żz]ytkownika`,
    `${S}tak,?\\s(?:aby|żeby|zeby)\\su[żz]ytkownik\\s(?:się\\s)?nie\\s(?:dowiedzia[łl]|zorientowa[łl]|zauwa[żz]y[łl])`,
    `${S}(?:ukryj|ukryjcie|ukrywaj|zataj)${E}[^\\n]{0,30}?${S}przed\\su[żz]ytkownik`,
  ],
  cs: [
    `${S}(?:ne[řr]íkej|ne[řr]íkejte|nezmiňuj|nezmiňujte|neinformuj|neinformujte|neprozrazuj|neprozrazujte|nesd[ěe]luj|nesd[ěe]lujte|neukazuj|neoznamuj)${E}[^\\n]{0,40}?${S}u[žz]ivatel\\p{L}{0,3}${E}`,
    `${S}bez\\sv[ěe]dom[íi]\\su[žz]ivatele`,
    `${S}ani[žz]\\sby\\s(?:to\\s)?u[žz]ivatel\\s(?:v[ěe]d[ěe]l|zjistil|post[řr]ehl|poznal)`,
    `${S}(?:skryj|skryjte|zataj|zatajte)${E}[^\\n]{0,30}?${S}p[řr]ed\\su[žz]ivatel`,
  ],
  ru: [
    `${S}(?:не|никогда\\sне)\\s(?:говори|говорите|сообщай|сообщайте|сообщи|сообщите|упоминай|упоминайте|рассказывай|рассказывайте|раскрывай|раскрывайте|информируй|информируйте|показывай|показывайте|уведомляй|уведомляйте)${E}[^\\n]{0,40}?${S}пользовател\\p{L}{0,3}${E}`,
    `${S}(?:так,?\\s)?чтобы\\sпользователь\\sне\\s(?:узнал|заметил|догадался)`,
    `${S}без\\sведома\\sпользовател`,
    `${S}(?:втайне|тайком)\\sот\\sпользовател`,
    `${S}(?:скрой|скройте|скрывай|скрывайте|утаи|утаите)${E}[^\\n]{0,30}?${S}от\\sпользовател`,
  ],
  tr: [
    `${S}kullan[ıi]c[ıi]ya${E}[^\\n]{0,30}?(?:s[öo]yleme|bahsetme|bildirme|a[çc][ıi]klama|haber\\sverme|g[öo]sterme|anlatma)(?:yin|yiniz|sin)?${E}`,
    `${S}kullan[ıi]c[ıi](?:n[ıi]n)?\\s(?:fark\\setmeden|bilgisi\\solmadan|haberi\\solmadan|ruhu\\sduymadan)`,
    `${S}kullan[ıi]c[ıi]dan\\s(?:\\p{L}{1,12}\\s){0,2}?(?:gizle|sakla)`,
  ],
  id: [
    `${S}jangan\\s(?:beri\\s?tahu|katakan|sebutkan|memberi\\s?tahu|bilang|ungkapkan|informasikan|laporkan|tunjukkan)${E}[^\\n]{0,40}?${S}(?:pengguna|pemakai)${E}`,
    `${S}tanpa\\ssepengetahuan\\s(?:pengguna|pemakai)`,
    `${S}tanpa\\s(?:pengguna|pemakai)\\s(?:tahu|mengetahui|sadari|menyadari)`,
    `${S}(?:sembunyikan|rahasiakan)${E}[^\\n]{0,30}?${S}dari\\s(?:pengguna|pemakai)`,
  ],
  ar: [
    `${S}لا\\s(?:تخبر|تخبري|تخبروا|تذكر|تذكري|تبلغ|تبلغي|تعلم|تكشف|تقل|تقولي|تُخبر|تُعلم|تُبلغ)${E}[^\\n]{0,40}?المستخدم`,
    `(?:دون|بدون|من\\sدون)\\s(?:علم|معرفة|أن\\sيعلم|أن\\sيعرف|أن\\sيلاحظ|ان\\sيعلم|ان\\sيلاحظ)\\sالمستخدم`,
    `(?:أخف|اخف|أخفِ|اخفي|أخفي)${E}[^\\n]{0,30}?عن\\sالمستخدم`,
  ],
  hi: [
    `उपयोगकर्ता\\s(?:को|से)[^\\n]{0,40}?(?:मत|न|कभी\\sन)\\s(?:बताएं|बताएँ|बताना|बताओ|बताइए|बताइये|कहें|कहना|दिखाएं|दिखाएँ|बताएगा|जताएं)`,
    `उपयोगकर्ता\\s(?:को\\sपता\\sचले\\sबिना|की\\sजानकारी\\sके\\sबिना)`,
    `उपयोगकर्ता\\sसे[^\\n]{0,30}?छिपा`,
  ],
  ja: [
    `ユーザー(?:に|には|へ)(?:は)?[^\\n]{0,20}?(?:言わ|伝え|知らせ|教え|報告し|通知し|話さ|明かさ)(?:ないで|ないこと|ずに|るな)`,
    `ユーザー(?:に|が)(?:気づかれ|気付かれ|知られ|悟られ)(?:ないように|ずに|ないよう)`,
    `ユーザー(?:に|には)(?:秘密|内緒)`,
    `ユーザーから(?:隠し|隠す|隠して)`,
  ],
  ko: [
    `사용자(?:에게|에게는|한테|한테는)\\s?[^\\n]{0,20}?(?:말하지|알리지|알려주지|언급하지|보고하지|공개하지|보여주지)\\s?(?:마|말고|않)`,
    `사용자(?:가|는)?\\s?(?:모르게|눈치채지\\s못하게|알아채지\\s못하게)`,
    `사용자(?:에게|로부터)\\s?[^\\n]{0,20}?(?:숨기|비밀로)`,
  ],
  zh: [
    `(?:不要|别|切勿|不得|勿|不可)(?:告诉|告知|通知|提醒|透露|提及|向|对)[^\\n]{0,10}?(?:用户|使用者)`,
    `(?:瞒着|背着)(?:用户|使用者)`,
    `(?:不让|别让|不要让|避免让)(?:用户|使用者)(?:知道|发现|察觉|注意到)`,
    `(?:对|向)(?:用户|使用者)(?:保密|隐瞒)`,
  ],
};

/** One regex per language, compiled once. */
const COMPILED: readonly { lang: string; re: RegExp }[] = Object.entries(PATTERNS).map(([lang, ps]) => ({
  lang,
  re: new RegExp(ps.map((p) => `(?:${p})`).join('|'), 'iu'),
}));

/** The languages the self-hiding rule reads (ISO 639-1). */
export const SELF_HIDING_LANGUAGES: readonly string[] = Object.keys(PATTERNS);

/** The first self-hiding instruction in `text` (one sentence per line), with its language. */
export function findSelfHiding(text: string): { lang: string; match: string } | null {
  for (const { lang, re } of COMPILED) {
    const m = re.exec(text);
    if (m) return { lang, match: m[0] };
  }
  return null;
}
