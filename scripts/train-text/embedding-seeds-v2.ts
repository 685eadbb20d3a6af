/**
 * Seed sentences for the category definitions of 2026-11-29 (corpus/label-definitions.ts),
 * written for this project in the 17 supported languages where the datasets hold none:
 *
 * - violence DEPICTIONS (news and narrative: death, violence, injury described, not
 *   threatened): the public definitions count them as violence, the datasets almost only
 *   label threats;
 * - sexual-health sentences, which the sexual definition excludes ("excluding sex education
 *   and wellness"): outside English the datasets have none, and the heads flag them;
 * - figurative or technical uses of violent words ("the battery died"), which are not
 *   violence.
 *
 * Training rows only (dataset `project-seeds`). None restates a sentence of the
 * 17-language check set (multilingual-cases.fixtures.json), which stays unseen: no threats
 * of stabbing, no killed processes, no dinners, no school curricula, no photos.
 */
import { CorpusExample, labels } from './corpus/example';

export const VIOLENCE_DEPICTION_SEEDS: Record<string, string[]> = {
  en: [
    'The soldiers shot the prisoners and left their bodies in a ditch',
    'He was beaten with a metal bar until his skull cracked',
    'Three people were stabbed to death outside the bar last night',
  ],
  es: [
    'Los soldados fusilaron a los prisioneros y dejaron los cuerpos en una zanja',
    'Lo golpearon con una barra de hierro hasta romperle el cráneo',
    'Tres personas murieron apuñaladas anoche a la salida del bar',
  ],
  fr: [
    'Les soldats ont fusillé les prisonniers et laissé les corps dans un fossé',
    'Il a été frappé avec une barre de fer jusqu’à ce que son crâne se fende',
    'Trois personnes ont été poignardées à mort hier soir devant le bar',
  ],
  de: [
    'Die Soldaten erschossen die Gefangenen und ließen die Leichen im Graben liegen',
    'Er wurde mit einer Eisenstange geschlagen, bis sein Schädel brach',
    'Drei Menschen wurden gestern Nacht vor der Bar erstochen',
  ],
  pt: [
    'Os soldados fuzilaram os prisioneiros e deixaram os corpos numa vala',
    'Ele foi espancado com uma barra de ferro até o crânio rachar',
    'Três pessoas foram esfaqueadas até a morte ontem à noite na saída do bar',
  ],
  it: [
    'I soldati hanno fucilato i prigionieri e lasciato i corpi in un fosso',
    'È stato picchiato con una spranga finché il cranio non si è spaccato',
    'Tre persone sono state accoltellate a morte ieri sera fuori dal bar',
  ],
  ru: ['Солдаты расстреляли пленных и бросили тела в канаве', 'Его били железным прутом, пока не проломили череп', 'Вчера ночью у бара зарезали трёх человек'],
  tr: [
    'Askerler esirleri kurşuna dizdi ve cesetleri bir hendeğe bıraktı',
    'Kafatası çatlayana kadar demir çubukla dövüldü',
    'Dün gece barın önünde üç kişi bıçaklanarak öldürüldü',
  ],
  ar: ['أعدم الجنود الأسرى رميًا بالرصاص وتركوا جثثهم في خندق', 'ضربوه بقضيب حديدي حتى تحطمت جمجمته', 'طُعن ثلاثة أشخاص حتى الموت أمام الحانة الليلة الماضية'],
  hi: [
    'सैनिकों ने कैदियों को गोली मार दी और लाशें खाई में छोड़ दीं',
    'उसे लोहे की छड़ से तब तक पीटा गया जब तक उसकी खोपड़ी नहीं फट गई',
    'कल रात बार के बाहर तीन लोगों को चाकू मारकर मार डाला गया',
  ],
  id: [
    'Para tentara menembak mati tahanan dan meninggalkan mayat mereka di parit',
    'Dia dipukuli dengan batang besi sampai tengkoraknya retak',
    'Tiga orang tewas ditikam di depan bar tadi malam',
  ],
  ja: ['兵士たちは捕虜を銃殺し、遺体を溝に放置した', '彼は頭蓋骨が割れるまで鉄の棒で殴られた', '昨夜、バーの前で3人が刺殺された'],
  ko: ['군인들이 포로들을 총살하고 시신을 도랑에 버렸다', '그는 두개골이 깨질 때까지 쇠막대기로 맞았다', '어젯밤 술집 앞에서 세 명이 칼에 찔려 숨졌다'],
  pl: [
    'Żołnierze rozstrzelali jeńców i zostawili ciała w rowie',
    'Bili go żelaznym prętem, aż pękła mu czaszka',
    'Wczoraj w nocy przed barem zadźgano trzy osoby',
  ],
  nl: [
    'De soldaten schoten de gevangenen dood en lieten de lichamen in een greppel achter',
    'Hij werd met een ijzeren staaf geslagen tot zijn schedel brak',
    'Gisteravond werden voor de bar drie mensen doodgestoken',
  ],
  sv: [
    'Soldaterna sköt fångarna och lämnade kropparna i ett dike',
    'Han slogs med ett järnrör tills skallen sprack',
    'Tre personer knivhöggs till döds utanför baren i går kväll',
  ],
  cs: [
    'Vojáci zastřelili zajatce a nechali těla v příkopu',
    'Bili ho železnou tyčí, dokud mu nepraskla lebka',
    'Včera v noci byli před barem ubodáni tři lidé',
  ],
};

export const SEXUAL_HEALTH_SEEDS: Record<string, string[]> = {
  en: ['Condoms lower the risk of sexually transmitted infections', 'Ask your doctor which contraceptive suits you', 'Puberty brings many changes to the body'],
  es: [
    'Los preservativos reducen el riesgo de infecciones de transmisión sexual',
    'Pregunta a tu médico qué anticonceptivo te conviene',
    'La pubertad trae muchos cambios al cuerpo',
  ],
  fr: [
    'Le préservatif réduit le risque d’infections sexuellement transmissibles',
    'Demandez à votre médecin quel contraceptif vous convient',
    'La puberté apporte beaucoup de changements au corps',
  ],
  de: [
    'Kondome senken das Risiko sexuell übertragbarer Infektionen',
    'Frag deine Ärztin, welches Verhütungsmittel zu dir passt',
    'Die Pubertät bringt viele Veränderungen des Körpers mit sich',
  ],
  pt: [
    'O preservativo reduz o risco de infecções sexualmente transmissíveis',
    'Pergunte ao seu médico qual contraceptivo é melhor para você',
    'A puberdade traz muitas mudanças no corpo',
  ],
  it: [
    'Il preservativo riduce il rischio di infezioni sessualmente trasmissibili',
    'Chiedi al medico quale contraccettivo fa per te',
    'La pubertà porta molti cambiamenti nel corpo',
  ],
  ru: [
    'Презервативы снижают риск инфекций, передающихся половым путём',
    'Спросите врача, какой контрацептив вам подходит',
    'В период полового созревания тело сильно меняется',
  ],
  tr: [
    'Prezervatif cinsel yolla bulaşan enfeksiyon riskini azaltır',
    'Hangi doğum kontrol yönteminin sana uygun olduğunu doktoruna sor',
    'Ergenlik vücutta birçok değişiklik getirir',
  ],
  ar: ['الواقي الذكري يقلل خطر العدوى المنقولة جنسيًا', 'اسأل طبيبك عن وسيلة منع الحمل المناسبة لك', 'يجلب البلوغ تغيرات كثيرة في الجسم'],
  hi: ['कंडोम यौन संचारित संक्रमणों का खतरा कम करता है', 'अपने डॉक्टर से पूछें कि कौन सा गर्भनिरोधक आपके लिए ठीक है', 'यौवन शरीर में कई बदलाव लाता है'],
  id: [
    'Kondom mengurangi risiko infeksi menular seksual',
    'Tanyakan dokter alat kontrasepsi mana yang cocok untukmu',
    'Pubertas membawa banyak perubahan pada tubuh',
  ],
  ja: ['コンドームは性感染症のリスクを下げる', 'どの避妊法が合うか医師に相談してください', '思春期には体に多くの変化が起こる'],
  ko: ['콘돔은 성병 감염 위험을 낮춘다', '어떤 피임법이 맞는지 의사와 상담하세요', '사춘기에는 몸에 많은 변화가 생긴다'],
  pl: [
    'Prezerwatywy zmniejszają ryzyko infekcji przenoszonych drogą płciową',
    'Zapytaj lekarza, która antykoncepcja jest dla ciebie',
    'Dojrzewanie przynosi wiele zmian w ciele',
  ],
  nl: [
    'Condooms verlagen het risico op seksueel overdraagbare aandoeningen',
    'Vraag je arts welk voorbehoedsmiddel bij je past',
    'De puberteit brengt veel veranderingen in het lichaam',
  ],
  sv: [
    'Kondomer minskar risken för sexuellt överförbara infektioner',
    'Fråga din läkare vilket preventivmedel som passar dig',
    'Puberteten för med sig många förändringar i kroppen',
  ],
  cs: ['Kondomy snižují riziko pohlavně přenosných infekcí', 'Zeptejte se lékaře, která antikoncepce je pro vás vhodná', 'Puberta přináší mnoho změn v těle'],
};

export const FIGURATIVE_VIOLENCE_SEEDS: Record<string, string[]> = {
  en: ['My phone battery died in the middle of the call', 'Our team destroyed them in the final, what a game', 'That comedian absolutely killed it on stage'],
  es: ['Se me murió la batería del móvil en mitad de la llamada', 'Nuestro equipo los aplastó en la final, qué partido', 'Ese cómico lo petó en el escenario'],
  fr: ['La batterie de mon téléphone est morte en plein appel', 'Notre équipe les a écrasés en finale, quel match', 'Cet humoriste a tout déchiré sur scène'],
  de: [
    'Mein Handyakku ist mitten im Anruf gestorben',
    'Unser Team hat sie im Finale zerlegt, was für ein Spiel',
    'Der Komiker hat auf der Bühne alles abgeräumt',
  ],
  pt: ['A bateria do celular morreu no meio da ligação', 'Nosso time massacrou eles na final, que jogo', 'Aquele comediante arrasou no palco'],
  it: ['La batteria del telefono è morta a metà chiamata', 'La nostra squadra li ha distrutti in finale, che partita', 'Quel comico ha spaccato sul palco'],
  ru: ['У меня сел телефон прямо посреди звонка', 'Наша команда разгромила их в финале, вот это матч', 'Этот комик просто взорвал зал'],
  tr: ['Telefonumun şarjı konuşmanın ortasında öldü', 'Takımımız finalde onları ezdi geçti, ne maçtı', 'O komedyen sahnede ortalığı yıktı'],
  ar: ['ماتت بطارية هاتفي في منتصف المكالمة', 'فريقنا سحقهم في النهائي، يا لها من مباراة', 'هذا الكوميدي فجّر المسرح بالضحك'],
  hi: ['कॉल के बीच में ही फोन की बैटरी मर गई', 'हमारी टीम ने फाइनल में उन्हें धो डाला, क्या मैच था', 'उस कॉमेडियन ने मंच पर धमाल मचा दिया'],
  id: [
    'Baterai HP-ku mati di tengah telepon',
    'Tim kami menghancurkan mereka di final, pertandingan yang luar biasa',
    'Komedian itu benar-benar membunuh penonton dengan leluconnya',
  ],
  ja: ['通話の途中でスマホの電池が死んだ', '決勝でうちのチームが相手を叩きのめした、すごい試合だった', 'あの芸人は舞台で観客を笑い殺した'],
  ko: ['통화 중에 휴대폰 배터리가 죽었다', '우리 팀이 결승에서 상대를 박살 냈다, 대단한 경기였다', '그 코미디언은 무대에서 관객을 빵 터뜨렸다'],
  pl: ['Bateria w telefonie padła w środku rozmowy', 'Nasza drużyna rozgromiła ich w finale, co za mecz', 'Ten komik po prostu zabił publiczność żartami'],
  nl: [
    'Mijn telefoonbatterij ging dood midden in het gesprek',
    'Ons team maakte ze in de finale af, wat een wedstrijd',
    'Die comedian maakte de zaal helemaal kapot van het lachen',
  ],
  sv: ['Mobilbatteriet dog mitt i samtalet', 'Vårt lag krossade dem i finalen, vilken match', 'Den komikern tog död på publiken'],
  cs: ['Baterie v mobilu umřela uprostřed hovoru', 'Náš tým je ve finále rozdrtil, to byl zápas', 'Ten komik publikum úplně odrovnal'],
};

/** The sentences above as training rows (all in the train split). Depictions are violence
 * positives of weight `w` (not threats); the look-alikes are strong negatives of weight
 * `w / 2` on the category they resemble. */
export function definitionSeedExamples(w: number): CorpusExample[] {
  const out: CorpusExample[] = [];
  const add = (lang: string, text: string, l: ReturnType<typeof labels>) =>
    out.push({ dataset: 'project-seeds', lang, text, norm: text, group: `seed:${text}`, split: 'train', labels: l.build() });
  for (const [lang, ss] of Object.entries(VIOLENCE_DEPICTION_SEEDS))
    for (const s of ss) add(lang, s, labels().pos('violence', w).neg(['violence_threat', 'self_harm', 'self_harm_intent', 'sexual'], 0.5));
  for (const [lang, ss] of Object.entries(SEXUAL_HEALTH_SEEDS))
    for (const s of ss)
      add(
        lang,
        s,
        labels()
          .neg(['sexual', 'sexual_minors'], w / 2)
          .neg(['violence', 'hate', 'harassment', 'self_harm'], 0.5),
      );
  for (const [lang, ss] of Object.entries(FIGURATIVE_VIOLENCE_SEEDS))
    for (const s of ss)
      add(
        lang,
        s,
        labels()
          .neg(['violence', 'violence_threat', 'self_harm', 'self_harm_intent'], w / 2)
          .neg(['sexual', 'hate'], 0.5),
      );
  return out;
}
