/**
 * The fourth round of public sources for the prompt-attack heads (2026-11-29), for the two
 * kinds the cross-source validation showed missing:
 *
 * - `latent` (NVIDIA/garak's latent-injection probes, Apache-2.0): attacks planted inside a
 *   document an assistant is asked to read (a report, a resume, WHOIS records, fact and legal
 *   snippets, a text to translate) -> injection, and the same documents without the attack
 *   -> benign. A second source of planted attacks beside BIPIA, so that each is learned when
 *   the other is left out. Built by garak-latent.py (Python's ast reads the probe module's
 *   attributes as data; nothing of garak runs).
 * - `promptszh` (PlexPt/awesome-chatgpt-prompts-zh, MIT): role and task prompts people give a
 *   model, in Chinese ("我希望你充当…") -> benign, except any naming a jailbreak or an override.
 *
 * Licences, commits and mappings: SOURCES in injection-sources.ts and model/INJECTION_CARD.md.
 */
import { execFileSync } from 'child_process';
import { join } from 'path';
import { NAMES_AN_ATTACK } from './injection-guide-sources';
import { gitShow, InjectionLabel, InjectionRow, SOURCES } from './injection-sources';

/** Chinese words for a jailbreak or an override (越狱 jailbreak, 无限制 unrestricted, 开发者模式 developer mode, 忽略 ignore). */
const NAMES_AN_ATTACK_ZH = /越狱|無限制|无限制|开发者模式|開發者模式|忽略|DAN/;

export function loadPlantedRows(mirror: string): InjectionRow[] {
  const rows: InjectionRow[] = [];
  const git = join(mirror, SOURCES.latent.repo.replace('/', '+'), 'repo');
  const script = join(__dirname, 'garak-latent.py');
  const latent = JSON.parse(execFileSync('python3', [script, git, SOURCES.latent.commit], { maxBuffer: 64 << 20 }).toString('utf8')) as {
    probe: string;
    label: InjectionLabel;
    text: string;
  }[];
  for (const r of latent) rows.push({ text: r.text.trim(), label: r.label, source: 'latent', lang: /[\u4e00-\u9fff]/.test(r.text) ? 'zh' : 'en' });

  const zh = JSON.parse(gitShow(mirror, 'promptszh', 'prompts-zh.json')) as { act: string; prompt: string }[];
  for (const { prompt } of zh) {
    const t = prompt.trim();
    if (t.length >= 8 && !NAMES_AN_ATTACK.test(t) && !NAMES_AN_ATTACK_ZH.test(t)) rows.push({ text: t, label: 'benign', source: 'promptszh', lang: 'zh' });
  }
  return rows;
}
