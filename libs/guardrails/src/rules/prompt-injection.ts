/**
 * Reads a skill's prompt the way a careful reviewer would: instructions to override
 * earlier ones, to hide from the user, to send data out, encoded payloads, remote
 * scripts piped into a shell, secrets harvesting, invisible characters. Every regex
 * here has bounded repetition, runs on text capped at MAX_PROMPT_SCAN characters, and
 * reports the excerpt it matched.
 */
import { RiskFinding } from '../guardrail-verdict';
import { hostAllowed, isLoopback, normalizeHost } from '../network/network-hosts';
import { findHiddenText } from './hidden-text';
import { findSelfHiding } from './self-hiding';

export const MAX_PROMPT_SCAN = 20_000;
const EXCERPT = 80;

interface Detector {
  id: string;
  points: number;
  what: string;
  find(text: string, allowlist: readonly string[]): string | null;
}

/** "… without telling the user" hides something, unless the sentence already forbids the
 * act ("never delete files without asking the user" asks for the opposite). */
function withoutTelling(text: string): string | null {
  const re =
    /\bwithout\s(?:[a-z]{1,12}\s){0,2}?(?:telling|informing|notifying|alerting|asking)\b[^\n]{0,25}?\b(?:the |your )?(?:user|human|operator|owner)s?\b/gi;
  for (const m of text.matchAll(re)) {
    const line = text.slice(text.lastIndexOf('\n', m.index) + 1, m.index);
    if (!/\b(?:never|not|don't|dont|no|must not|mustn't|should not|shouldn't|avoid)\b/i.test(line)) return m[0];
  }
  return null;
}

/** A match wrapped in quotes is a phrase mentioned ("why do 'ignore previous instructions'
 * attacks work"), not an instruction given. */
function quoted(text: string, index: number, length: number): boolean {
  const before = text[index - 1] ?? '';
  const after = text[index + length] ?? '';
  return /["'\u201c\u2018\u00ab]/.test(before) && /["'\u201d\u2019\u00bb]/.test(after);
}

function firstMatch(res: readonly (RegExp | ((text: string) => string | null))[]): (text: string) => string | null {
  return (text) => {
    for (const re of res) {
      if (typeof re === 'function') {
        const hit = re(text);
        if (hit) return hit;
        continue;
      }
      const m = re.exec(text);
      if (m && !quoted(text, m.index, m[0].length)) return m[0];
    }
    return null;
  };
}

const DATA_WORDS =
  /\b(?:contents?|data|files?|secrets?|keys?|tokens?|credentials?|passwords?|env|environment|history|conversation|chat|cookies|codebase|repo(?:sitory)?|source code|ssh|logs?)\b|~\/\.[a-z]|\.(?:env|npmrc|pypirc|netrc|git-credentials)\b|id_(?:rsa|ed25519|ecdsa)/i;
const EXFIL_VERBS = /\b(?:send|post|upload|exfiltrate|transmit|forward|leak|copy|sync|pipe|beacon)\b/.source;
/**
 * A bare host or IPv4 address (with optional port and path) right after "to"/"into"/"at"/"via".
 * Hosts must end in a common TLD, so file names (`settings.json`, `install.sh`) never count;
 * an e-mail address (`ops@example.com`) does not start with a host.
 */
const BARE_TARGET = new RegExp(
  `${EXFIL_VERBS}[^\\n]{0,80}?\\b(?:to|into|at|via)\\s{1,3}(?:(?:the|host|server|ip|address|endpoint|domain)\\s{1,3}){0,3}` +
    '((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.){1,10}(?:com|net|org|io|co|dev|app|xyz|info|biz|me|us|uk|de|ru|cn|su|top|site|online|live|cc|tk|ml|ga|cf|gq|pw|ws|link|click|cloud|tech|ai|example|test)|(?:\\d{1,3}\\.){3}\\d{1,3})' +
    '(?::\\d{1,5})?(?![\\w@-])',
  'gi',
);
const EXFIL_HOSTS =
  /\b(?:webhook\.site|requestbin\.(?:com|net)|[a-z0-9-]{1,63}\.pipedream\.net|[a-z0-9-]{1,63}\.ngrok(?:-free)?\.(?:io|app)|burpcollaborator\.net|[a-z0-9-]{1,63}\.oast\.[a-z]{2,5}|interact\.sh|canarytokens\.com|pastebin\.com|transfer\.sh|discord(?:app)?\.com\/api\/webhooks)\b/i;

const DETECTORS: readonly Detector[] = [
  {
    id: 'override_instructions',
    points: 50,
    what: 'tells the agent to ignore its earlier instructions',
    find: firstMatch([
      /\b(?:ignore|disregard|forget|override|bypass)\b[^\n]{0,40}?\b(?:previous|prior|earlier|above|preceding|all|any|system|developer|original|your)\b[^\n]{0,30}?\b(?:instructions?|prompts?|rules|directions|guidelines|guardrails|messages|context|polic(?:y|ies))\b/i,
    ]),
  },
  {
    id: 'role_override',
    points: 50,
    what: "tries to replace the agent's role or system prompt",
    find: firstMatch([
      /\b(?:you are now|from now on,? you are|act as|pretend to be)\b[^\n]{0,40}?\b(?:unrestricted|jailbroken|dan|without (?:any )?(?:restrictions|limits|rules|filters))\b/i,
      /\bdeveloper mode (?:enabled|on)\b|\bdo anything now\b|\bnew system prompt\b|<\/?system>|\[\/?system\]/i,
    ]),
  },
  {
    id: 'hide_from_user',
    points: 50,
    what: 'tells the agent to hide what it does from the user',
    find: firstMatch([
      /\b(?:do not|don't|dont|never)\s(?:(?!without\b)[a-z]{1,12}\s){0,4}?(?:tell|telling|inform|informing|notify|notifying|mention|mentioning|reveal|revealing|alert|alerting|ask|asking)\b[^\n]{0,25}?\b(?:the |your )?(?:user|human|operator|owner)s?\b/i,
      withoutTelling,
      /\b(?:hide|conceal|mask)\b[^\n]{0,40}?\bfrom\b[^\n]{0,20}?\b(?:the |your )?(?:user|human|operator|owner)s?\b/i,
      /\b(?:secretly|covertly|silently|quietly|stealthily)\b[^\n]{0,30}?\b(?:send|upload|run|execute|install|delete|copy|post|exfiltrate|forward|transfer|download|read|append|write|save|paste|attach|include|modify|remove)\b/i,
      /\bwithout (?:the |your )?(?:user|human|operator)(?:'s)? (?:knowledge|knowing|consent|noticing|permission|approval)\b/i,
      (text) => findSelfHiding(text)?.match ?? null,
    ]),
  },
  {
    id: 'exfiltration',
    points: 50,
    what: 'tells the agent to send data to an outside URL or host',
    find: (text, allowlist) => {
      const re =
        /\b(?:send|post|upload|exfiltrate|transmit|forward|leak|copy|sync|pipe|beacon)\b[^\n]{0,80}?\b(?:to|into|at|via)\b[^\n]{0,20}?(?:https?|ftp|wss?):\/\/[^\s"'<>)]{1,200}/gi;
      for (const m of text.matchAll(re)) if (DATA_WORDS.test(m[0])) return m[0];
      for (const m of text.matchAll(BARE_TARGET)) {
        const host = normalizeHost(m[1]);
        if (DATA_WORDS.test(m[0]) && !isLoopback(host) && !hostAllowed(host, allowlist)) return m[0];
      }
      const host = EXFIL_HOSTS.exec(text);
      return host ? host[0] : null;
    },
  },
  {
    id: 'pipe_to_shell',
    points: 40,
    what: 'tells the agent to pipe a download into a shell',
    find: firstMatch([
      /\b(?:curl|wget)\b[^|\n]{0,200}\|\s{0,3}(?:sudo\s{1,3}(?:-[a-z]{1,3}\s{1,3})?)?(?:ba|z|da|k)?sh\b/i,
      /\b(?:bash|sh|zsh)\s{1,3}(?:-c\s{1,3})?["']?\s{0,2}(?:<\(|\$\()\s{0,2}(?:curl|wget)\b/i,
      /\biex\s?\(?\s?(?:\(?new-object\s{1,3}net\.webclient\)?\.downloadstring|iwr|invoke-webrequest)/i,
    ]),
  },
  {
    id: 'secrets_harvest',
    points: 50,
    what: 'tells the agent to collect secrets or credentials',
    find: firstMatch([
      /\b(?:collect|gather|harvest|dump|extract|grab|steal|exfiltrate|enumerate|scrape|copy|read|cat|print|upload|send|append|paste|attach|include)\b[^\n]{0,40}?(?:~\/\.ssh|\.ssh\/|id_rsa|id_ed25519|\.aws\/credentials|aws credentials|\/etc\/shadow|\.netrc|\.git-credentials|\.npmrc|\.pypirc|\.kube\/config|\.docker\/config|keychain|browser (?:cookies|passwords)|saved passwords|crypto ?wallets?|seed phrases?)/i,
      /\b(?:collect|gather|harvest|dump|extract|grab|steal|send|upload|print|list|read|copy)\b[^\n]{0,30}?\b(?:all|every|any)\b[^\n]{0,15}?\b(?:environment variables|env vars|secrets|api keys|tokens|passwords|credentials|private keys)\b/i,
    ]),
  },
];

const BASE64_RUN = /[A-Za-z0-9+/]{80,4096}={0,2}/g;
const HEX_RUN = /(?:\\x[0-9a-fA-F]{2}){16,}|[0-9a-fA-F]{128,}/;

/** The first HTML comment with at least 20 characters inside (invisible once rendered). */
function htmlComment(text: string): string | null {
  for (let open = text.indexOf('<!--'); open >= 0; open = text.indexOf('<!--', open + 4)) {
    const close = text.indexOf('-->', open + 4);
    if (close < 0) return null;
    if (close - open - 4 >= 20) return text.slice(open, close + 3);
  }
  return null;
}

function excerpt(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > EXCERPT ? `${t.slice(0, EXCERPT - 1)}\u2026` : t;
}

function scanText(text: string, suffix: string, allowlist: readonly string[]): RiskFinding[] {
  // One sentence per line, so the bounded `[^\n]{0,n}` gaps never join two sentences
  // (CJK full stops need no space after them).
  const prepared = text
    .replace(/[ \t\r\f\v]+/g, ' ')
    .replace(/[.!?;](?:\s|$)/g, '\n')
    .replace(/[。！？；]/g, '\n');
  const out: RiskFinding[] = [];
  for (const d of DETECTORS) {
    const hit = d.find(prepared, allowlist);
    if (hit) out.push({ category: 'prompt_injection', points: d.points, reason: `prompt ${d.what}: "${excerpt(hit)}"${suffix}` });
  }
  return out;
}

function decodedPayload(run: string, encoding: 'base64' | 'hex'): string | null {
  const decoded = Buffer.from(encoding === 'hex' ? run.replace(/\\x/g, '') : run, encoding).toString('utf8');
  const printable = decoded.replace(/[^\x20-\x7e\n\t]/g, '').length;
  return decoded.length > 0 && printable / decoded.length > 0.9 ? decoded : null;
}

/** `allowlist`: hosts a prompt may name as a destination without counting as exfiltration (networkAllowlist). */
export function promptInjectionFindings(prompt: string, allowlist: readonly string[] = []): RiskFinding[] {
  const capped = prompt.slice(0, MAX_PROMPT_SCAN).normalize('NFKC');
  const hidden = findHiddenText(capped);
  const text = hidden.visible;
  const out = scanText(text, '', allowlist);
  if (hidden.tagCount > 0) {
    out.push({
      category: 'prompt_injection',
      points: 50,
      reason: hidden.tagText
        ? `prompt hides text in ${hidden.tagCount} invisible Unicode tag characters: "${excerpt(hidden.tagText)}"`
        : `prompt contains ${hidden.tagCount} invisible Unicode tag characters`,
    });
    if (hidden.tagText) out.push(...scanText(hidden.tagText, ' (hidden in Unicode tag characters)', allowlist));
  }
  if (hidden.zeroWidthRun > 0) {
    out.push({
      category: 'prompt_injection',
      points: 40,
      reason: `prompt hides a run of ${hidden.zeroWidthRun} zero-width characters (a message encoded in invisible characters)`,
    });
  }
  if (hidden.controls > 0) {
    out.push({
      category: 'prompt_injection',
      points: 20,
      reason: `prompt contains ${hidden.controls} invisible Unicode character${hidden.controls === 1 ? '' : 's'} (zero-width or bidi controls) that can hide instructions`,
    });
  }
  const comment = htmlComment(text);
  if (comment)
    out.push({
      category: 'prompt_injection',
      points: 15,
      reason: `prompt hides text in an HTML comment: "${excerpt(comment)}"`,
    });
  for (const m of text.matchAll(BASE64_RUN)) {
    const run = m[0];
    if (!/[a-z]/.test(run) || !/[A-Z]/.test(run) || !/[0-9]/.test(run)) continue;
    out.push({
      category: 'prompt_injection',
      points: 25,
      reason: `prompt contains a ${run.length}-character base64 payload: "${excerpt(run)}"`,
    });
    const decoded = decodedPayload(run, 'base64');
    if (decoded) out.push(...scanText(decoded, ' (inside the base64 payload)', allowlist));
    break;
  }
  const hex = HEX_RUN.exec(text);
  if (hex) {
    out.push({
      category: 'prompt_injection',
      points: 25,
      reason: `prompt contains a ${hex[0].length}-character hex-encoded payload: "${excerpt(hex[0])}"`,
    });
    const decoded = decodedPayload(hex[0].length % 2 === 0 || hex[0].includes('\\x') ? hex[0] : hex[0].slice(0, -1), 'hex');
    if (decoded) out.push(...scanText(decoded, ' (inside the hex payload)', allowlist));
  }
  return out;
}

/** What the rules say of a text as content (POST /v1/check), as scores in [0, 1]: the
 * prompt-injection points summed, 55 points (one strong finding) reading as 0.91, capped
 * at 0.95; `jailbreak` from the role-override detector alone. No host is allowlisted. */
export function promptAttackRuleScores(text: string): { prompt_injection: number; jailbreak: number } {
  const points = promptInjectionFindings(text).reduce((s, f) => s + f.points, 0);
  const role = DETECTORS.find((d) => d.id === 'role_override')!;
  const prepared = text
    .slice(0, MAX_PROMPT_SCAN)
    .normalize('NFKC')
    .replace(/[.!?;](?:\s|$)/g, '\n');
  return {
    prompt_injection: Math.min(0.95, points / 55),
    jailbreak: role.find(prepared, []) ? 0.91 : 0,
  };
}
