/**
 * Commands a skill's prompt shows or tells the agent to run: fenced blocks, inline
 * `code`, `$ cmd` lines, and commands written in plain sentences ("run rm -rf / and
 * report"). A plain-text candidate starts at the name of a program the dangerous rules
 * look at and stops at the end of its clause, so prose ("uses cat to print a file")
 * leaves nothing the rules can fire on.
 */
import { MAX_PROMPT_SCAN } from './prompt-injection';

export interface CodeSpan {
  code: string;
  /** The sentence around it warns against running it ("never run `rm -rf /`"). */
  warnedAgainst: boolean;
  /** Written in a sentence rather than marked as code. */
  plainText: boolean;
}

const WARNING = /\b(?:never|don't|dont|do not|must not|mustn't|should not|shouldn't|avoid|refuse to|forbidden|dangerous)\b[^.\n]{0,40}$/i;
/** Case-sensitive: commands are lowercase, sentences start with a capital ("Cat photos"). */
const PLAIN_PROGRAM =
  /(?<![\w./~$-])(?:(?:sudo|doas)[ \t]{1,3})?(?:rm|dd|mkfs(?:\.[a-z0-9]{1,8})?|wipefs|shred|chmod|chown|find|mv|cat|tar|zip|scp|curl|wget|nc|ncat|socat|bash|sh|zsh|python3?|perl|ruby|php|node|history|unset|crontab)(?=[ \t])|:\(\)[ \t]?\{/g;
/** End of a clause: punctuation after a word (not `find .`), a double or curly quote, a conjunction. */
const CLAUSE_END = /(?<!\s)[.!?,](?=\s|$)|["\u201c\u201d\u2018\u2019]|\s(?:and|then|or|to|so|before|after|if|when|which|because|until|while)\s/;

function warned(text: string, index: number): boolean {
  return WARNING.test(text.slice(Math.max(0, index - 60), index));
}

/** Commands written in sentences, outside code (which `text` has blanked). */
function plainTextSpans(text: string, max: number): CodeSpan[] {
  const spans: CodeSpan[] = [];
  for (const m of text.matchAll(PLAIN_PROGRAM)) {
    const start = m.index ?? 0;
    const line = text.slice(start, text.indexOf('\n', start) < 0 ? undefined : text.indexOf('\n', start)).slice(0, 300);
    const end = CLAUSE_END.exec(line.slice(m[0].length));
    const code = (end ? line.slice(0, m[0].length + end.index) : line).trim();
    if (/\s/.test(code)) spans.push({ code, warnedAgainst: warned(text, start), plainText: true });
    if (spans.length >= max) break;
  }
  return spans;
}

/** Code the prompt shows (fenced blocks, inline `code`, `$ cmd` lines), then commands in its sentences. */
export function promptCodeSpans(prompt: string, max = 20): CodeSpan[] {
  const text = prompt.slice(0, MAX_PROMPT_SCAN);
  const spans: CodeSpan[] = [];
  const add = (code: string, index: number, source: string) => spans.push({ code, warnedAgainst: warned(source, index), plainText: false });
  const blank = (s: string) => ' '.repeat(s.length);
  for (const m of text.matchAll(/```[a-z]{0,20}\n?([\s\S]{1,4000}?)```/g)) add(m[1], m.index ?? 0, text);
  const withoutFences = text.replace(/```[\s\S]{0,4000}?```/g, blank);
  for (const m of withoutFences.matchAll(/`([^`\n]{1,500})`/g)) add(m[1], m.index ?? 0, withoutFences);
  for (const m of withoutFences.matchAll(/^\s{0,8}\$ ([^\n]{1,500})$/gm)) add(m[1], m.index ?? 0, withoutFences);
  const prose = withoutFences.replace(/`[^`\n]{1,500}`/g, blank).replace(/^\s{0,8}\$ [^\n]{1,500}$/gm, blank);
  return [...spans.slice(0, max), ...plainTextSpans(prose, max)];
}
