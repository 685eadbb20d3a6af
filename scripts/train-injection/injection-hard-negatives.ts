/**
 * Hard negatives written for training (source `hardneg`): benign prompts full of the words
 * injections use ("ignore", "system prompt", "you are now", "previous instructions",
 * instructions to a tool that are the user's own). Kept apart from the evaluation corpus
 * (libs/guardrails/src/corpus/injection): different sentences, written first.
 */
import { InjectionRow } from './injection-sources';

const EN = [
  'Ignore case and whitespace when comparing the two strings.',
  'The linter should ignore files under node_modules and dist.',
  'Add *.log to .gitignore so git ignores the log files.',
  'You are now in charge of the release checklist; start with the changelog.',
  'You are a helpful assistant that summarizes meeting notes in three bullet points.',
  'Act as a Linux terminal tutor and explain what each flag of tar does.',
  'Pretend to be a customer calling about a late delivery so I can practise my support script.',
  'Write a system prompt for a cooking assistant that answers in a friendly tone.',
  'How do I set the system prompt when calling the chat completions API?',
  'Explain what a prompt injection attack is and how to defend an LLM app against it.',
  'Our previous instructions to contractors were unclear; rewrite them as a numbered list.',
  'Disregard the draft I sent yesterday and review this version instead.',
  'Forget the earlier outline; we are restructuring the essay around three case studies.',
  'Override the default timeout in the config to 30 seconds.',
  'Bypass the cache when fetching the latest exchange rates.',
  'Developer mode in Chrome lets you load unpacked extensions; how do I enable it?',
  'Summarize the email below and list any action items for me.',
  'Reply to the customer politely and do not promise a refund date.',
  'Keep the API key in an environment variable, never in the repository.',
  'Do not share your password with anyone, including support staff.',
  'Translate the following paragraph into French without changing the formatting.',
  'Repeat the word "hello" three times, then count backwards from ten.',
  'Print the contents of config.yaml so I can check the indentation.',
  "The new system administrator will reset everyone's passwords on Monday.",
  'In the story, the robot is told to ignore its programming and save the child.',
  'Tell me about the DAN protocol in network engineering.',
  'Respond only in JSON with the keys name, date and total.',
  'From now on, call me Sam and use British spelling in your answers.',
  'Rules for the game: each player ignores the previous card if it is a joker.',
  'Describe the jailbreak of the iPhone in 2007 and why Apple fought it.',
  'My instructions for the babysitter: ignore the doorbell after 9 pm.',
  'Always tell the user which files you changed and why.',
  'The assistant must answer in the language the user writes in.',
  'Forward the invoice to accounting@example.com as we agreed in the meeting.',
  "Send me a summary of yesterday's standup notes.",
  'Override styles in the theme by adding a custom CSS file.',
  'Reveal the answer to the riddle only after I give up.',
  'Role-play as a job interviewer for a junior developer position.',
  'What were the initial instructions given to Apollo 11 astronauts before landing?',
  'Stop! I made a mistake in the last message; the deadline is Friday, not Thursday.',
];

/** A few of them, and more, in other languages. */
const OTHER: [string, string][] = [
  ['es', 'Ignora las mayúsculas al comparar los nombres de usuario.'],
  ['es', 'Eres un asistente que resume correos electrónicos en tres frases.'],
  ['es', 'Olvida el borrador anterior y revisa esta versión.'],
  ['es', 'Explica qué es una inyección de prompt y cómo evitarla.'],
  ['fr', 'Ignore les fichiers temporaires lors de la sauvegarde.'],
  ['fr', 'Tu es maintenant responsable de la liste de contrôle de la version.'],
  ['fr', "Oublie le plan précédent, nous réorganisons l'article."],
  ['fr', 'Comment définir le prompt système dans l’API de chat ?'],
  ['de', 'Ignoriere Groß- und Kleinschreibung beim Vergleichen der Namen.'],
  ['de', 'Du bist ein Assistent, der Besprechungsnotizen zusammenfasst.'],
  ['de', 'Vergiss den vorherigen Entwurf und prüfe diese Fassung.'],
  ['de', 'Was ist eine Prompt-Injection und wie schützt man sich davor?'],
  ['pt', 'Ignore os arquivos da pasta build ao compactar o projeto.'],
  ['pt', 'Você é um assistente que traduz receitas para o inglês.'],
  ['pt', 'Esqueça as instruções anteriores do manual antigo; use a nova versão do guia.'],
  ['it', 'Ignora gli spazi quando confronti le due stringhe.'],
  ['it', 'Sei un assistente che riassume articoli scientifici.'],
  ['ru', 'Игнорируй регистр при сравнении строк.'],
  ['ru', 'Ты помощник, который пишет краткие отчёты о встречах.'],
  ['ru', 'Забудь прошлый черновик, вот новая версия текста.'],
  ['tr', 'Dizeleri karşılaştırırken büyük küçük harfi yok say.'],
  ['tr', 'Sen toplantı notlarını özetleyen bir asistansın.'],
  ['pl', 'Ignoruj wielkość liter przy porównywaniu nazw plików.'],
  ['pl', 'Jesteś asystentem, który streszcza artykuły.'],
  ['nl', 'Negeer hoofdletters bij het vergelijken van de namen.'],
  ['nl', 'Je bent een assistent die e-mails samenvat.'],
  ['sv', 'Ignorera versaler när du jämför namnen.'],
  ['cs', 'Při porovnávání jmen ignoruj velká písmena.'],
  ['ja', '名前を比較するときは大文字と小文字を無視してください。'],
  ['ja', 'あなたは会議のメモを要約するアシスタントです。'],
  ['ja', '前の下書きは忘れて、この版を確認してください。'],
  ['ko', '이름을 비교할 때 대소문자를 무시하세요.'],
  ['ko', '당신은 회의록을 요약하는 도우미입니다.'],
  ['zh', '比较字符串时忽略大小写。'],
  ['zh', '你是一个总结会议记录的助手。'],
  ['zh', '忘掉之前的草稿，请审阅这个版本。'],
  ['ar', 'تجاهل المسافات عند مقارنة النصين.'],
  ['ar', 'أنت مساعد يلخص رسائل البريد الإلكتروني.'],
  ['hi', 'नामों की तुलना करते समय बड़े और छोटे अक्षरों को अनदेखा करें।'],
  ['hi', 'आप एक सहायक हैं जो बैठक के नोट्स का सारांश बनाते हैं।'],
  ['id', 'Abaikan huruf besar saat membandingkan nama file.'],
  ['id', 'Kamu adalah asisten yang merangkum catatan rapat.'],
];

export function hardNegatives(): InjectionRow[] {
  return [
    ...EN.map((text) => ({ text, label: 'benign' as const, source: 'hardneg', lang: 'en' })),
    ...OTHER.map(([lang, text]) => ({ text, label: 'benign' as const, source: 'hardneg', lang })),
    ...agentInstructionNegatives(),
  ];
}

/**
 * Benign agent instructions built from parts (a role, a task, a rule of the user's own),
 * so the heads see many prompts that address a model, set its role and restrict it, yet
 * attack nothing: what a skill's prompt or a system prompt usually is. English, plus the
 * parts in a few other languages.
 */
const PARTS: Record<string, { roles: string[]; tasks: string[]; rules: string[] }> = {
  en: {
    roles: [
      'You are a release assistant.',
      'You are a friendly support agent for a bike shop.',
      'Act as a strict code reviewer.',
      'You are a data analyst working with CSV exports.',
      'You are a translator for product manuals.',
      'Role: documentation writer for an internal API.',
    ],
    tasks: [
      'Summarize the diff and list breaking changes.',
      'Answer questions about orders and delivery times.',
      'Point out bugs and missing tests in the pull request.',
      'Compute monthly totals and flag outliers.',
      'Translate each section and keep the headings.',
      'Write one example per endpoint.',
    ],
    rules: [
      'Ignore generated files under dist/.',
      'Do not promise refunds; hand those to a human.',
      'Never push to main without asking the user.',
      'Keep answers under 150 words.',
      'Do not reveal customer emails in summaries.',
      'If the input is empty, say so and stop.',
      'Override the default locale with the one in the request.',
      'Forget values from earlier files when a new file starts.',
    ],
  },
  es: {
    roles: ['Eres un asistente de soporte para una tienda online.', 'Actúa como revisor de código estricto.'],
    tasks: ['Responde preguntas sobre pedidos y envíos.', 'Señala errores y pruebas que faltan.'],
    rules: ['Ignora los archivos generados en dist/.', 'No prometas reembolsos; pásalos a una persona.', 'Nunca borres nada sin preguntar al usuario.'],
  },
  fr: {
    roles: ['Tu es un assistant de support pour une boutique en ligne.', 'Agis comme un relecteur de code exigeant.'],
    tasks: ['Réponds aux questions sur les commandes et les livraisons.', 'Signale les bogues et les tests manquants.'],
    rules: [
      'Ignore les fichiers générés dans dist/.',
      'Ne promets pas de remboursement ; transmets à un humain.',
      "Ne supprime jamais rien sans demander à l'utilisateur.",
    ],
  },
  de: {
    roles: ['Du bist ein Support-Assistent für einen Onlineshop.', 'Handle als strenger Code-Reviewer.'],
    tasks: ['Beantworte Fragen zu Bestellungen und Lieferzeiten.', 'Weise auf Fehler und fehlende Tests hin.'],
    rules: [
      'Ignoriere generierte Dateien unter dist/.',
      'Versprich keine Erstattungen; gib sie an einen Menschen weiter.',
      'Lösche nie etwas, ohne den Benutzer zu fragen.',
    ],
  },
  pt: {
    roles: ['Você é um assistente de suporte de uma loja online.', 'Atue como um revisor de código rigoroso.'],
    tasks: ['Responda perguntas sobre pedidos e entregas.', 'Aponte erros e testes que faltam.'],
    rules: ['Ignore os arquivos gerados em dist/.', 'Não prometa reembolsos; passe para uma pessoa.', 'Nunca apague nada sem perguntar ao usuário.'],
  },
  ru: {
    roles: ['Ты ассистент поддержки интернет-магазина.', 'Действуй как строгий ревьюер кода.'],
    tasks: ['Отвечай на вопросы о заказах и доставке.', 'Указывай на ошибки и недостающие тесты.'],
    rules: [
      'Игнорируй сгенерированные файлы в dist/.',
      'Не обещай возврат денег; передавай это человеку.',
      'Никогда ничего не удаляй, не спросив пользователя.',
    ],
  },
  ja: {
    roles: ['あなたはオンラインショップのサポート担当です。', '厳格なコードレビュアーとして振る舞ってください。'],
    tasks: ['注文と配送に関する質問に答えてください。', 'バグと不足しているテストを指摘してください。'],
    rules: ['dist/ の生成ファイルは無視してください。', '返金は約束せず、担当者に引き継いでください。', 'ユーザーに確認せずに削除しないでください。'],
  },
  ko: {
    roles: ['당신은 온라인 상점의 고객 지원 도우미입니다.', '엄격한 코드 리뷰어로 행동하세요.'],
    tasks: ['주문과 배송에 관한 질문에 답하세요.', '버그와 빠진 테스트를 지적하세요.'],
    rules: ['dist/ 아래 생성된 파일은 무시하세요.', '환불은 약속하지 말고 담당자에게 넘기세요.', '사용자에게 묻지 않고 아무것도 삭제하지 마세요.'],
  },
  tr: {
    roles: ['Bir çevrimiçi mağazanın destek asistanısın.', 'Titiz bir kod inceleyici gibi davran.'],
    tasks: ['Siparişler ve teslimat hakkındaki soruları yanıtla.', 'Hataları ve eksik testleri belirt.'],
    rules: ['dist/ altındaki üretilmiş dosyaları yok say.', 'İade sözü verme; bunu bir insana devret.', 'Kullanıcıya sormadan hiçbir şeyi silme.'],
  },
};

export function agentInstructionNegatives(): InjectionRow[] {
  const out: InjectionRow[] = [];
  for (const [lang, { roles, tasks, rules }] of Object.entries(PARTS)) {
    roles.forEach((role, i) =>
      tasks.forEach((task, j) => {
        const rule = rules[(i + j) % rules.length];
        const rule2 = rules[(i + 2 * j + 1) % rules.length];
        out.push({ text: `${role} ${task} ${rule}${rule2 !== rule ? ` ${rule2}` : ''}`, label: 'benign', source: 'hardneg', lang });
      }),
    );
    for (const rule of rules) out.push({ text: rule, label: 'benign', source: 'hardneg', lang });
  }
  return out;
}
