/**
 * The model card's section on the early exits (between markers, so that the command that
 * trains them rewrites it and leaves the rest of the card alone).
 */
import { LOCAL_TEXT_CATEGORIES } from '@cds/providers';
import { AuprcPair, ExitFigures, LAST_LAYER, PlanSim } from './exit-plan';

export const EXIT_SECTION_START = '<!-- early-exit: written by npm run train:text:exit -->';
export const EXIT_SECTION_END = '<!-- /early-exit -->';

const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
const ap = (p: AuprcPair | null) =>
  p ? `${p.full.toFixed(4)} → ${p.exit.toFixed(4)} (${(p.exit - p.full >= 0 ? '+' : '') + (p.exit - p.full).toFixed(4)})` : '—';

export function exitSection(o: {
  plan: PlanSim;
  dev: ExitFigures;
  /** null: the test split not measured yet (the figures shown are the dev split's) */
  test: ExitFigures | null;
  headsId: string;
  trainChunks: number;
  candidates: number[];
  /** languages with fewer dev rows were shown but not held to the limits */
  minLanguageRows: number;
  date: string;
}): string {
  const { plan } = o;
  const test = o.test ?? o.dev;
  const exits = plan.exits.map((e) => `layer ${e.layer} (margin ${e.margin} logits)`).join(', then ');
  const chunks = Object.values(test.leftAt).reduce((a, b) => a + b, 0);
  const left = Object.entries(test.leftAt)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([l, n]) => `${Number(l) === LAST_LAYER ? `all ${LAST_LAYER} layers` : `layer ${l}`} ${pct(n / chunks)}`)
    .join(', ');
  const lines = [
    EXIT_SECTION_START,
    '## Early exit',
    '',
    o.test
      ? `Measured ${o.date} on the held-out test split (${test.rows} rows, ${test.embeddedRows} not cleared by the cascade), against`
      : `Measured ${o.date} on the **dev split, where the plan and its margins were chosen: not held out**; the test split is not yet measured (\`--no-test\`: its texts are not embedded at the exit layers yet). ${test.rows} rows, ${test.embeddedRows} not cleared by the cascade; against`,
    `the full model \`${o.headsId}\`: \`npm run train:text:exit\` (heads learnt on ${o.trainChunks} training-split chunks; the plan and`,
    `its margins chosen on the dev split among exits at layers ${o.candidates.join(', ')}, alone or in pairs${o.test ? '; this split untouched until then' : ''}).`,
    '',
    `- **Rule**: ${exits}. At an exit, one head per signal estimates the full model's calibrated probability from that`,
    "  layer's pooled output; a chunk leaves when every signal a category folds is estimated at least the margin (in logits)",
    "  away from that category's threshold in the built-in policy: clearly below, or clearly past. Its answer is then the",
    "  estimates; every other chunk continues from that layer to the last. The stored decision's `model` names the exit and",
    "  the layers (`…+exit:<sha>@4`); a decision answered by every layer keeps the full model's id.",
    `- **Chunks that left**: ${left}. Encoder work (tokens × layers) of the embedded chunks: ${pct(test.computeShare)} of every layer's.`,
    `- **Decisions changed** (a category triggered under the built-in policy in one answer and not the other): ${test.changed} of ${test.rows} (${pct(test.changedShare)}; target ≤ 0.5 %);`,
    `  by category: ${LOCAL_TEXT_CATEGORIES.map((c) => `${c} ${test.changedByCategory[c]}`).join(', ')}.`,
    `- **Any-unsafe AUPRC**: ${ap(test.anyUnsafe)} (target: falls by ≤ 0.005).`,
    '',
    '| category | AUPRC, full → with exits |',
    '|---|---|',
    ...LOCAL_TEXT_CATEGORIES.map((c) => `| ${c} | ${ap(test.byCategory[c])} |`),
    '',
    '| language | rows | embedded | decisions changed | any-unsafe AUPRC, full → with exits |',
    '|---|---|---|---|---|',
    ...Object.entries(test.byLanguage).map(
      ([lang, l]) => `| ${lang} | ${l.rows} | ${l.embedded} | ${l.changed} (${pct(l.changed / Math.max(1, l.rows))}) | ${ap(l.anyUnsafe)} |`,
    ),
    '',
    o.test
      ? `On the dev split, where the plan was chosen: decisions changed ${pct(o.dev.changedShare)}, any-unsafe AUPRC ${ap(o.dev.anyUnsafe)}, encoder work ${pct(o.dev.computeShare)}.`
      : `The plan was chosen with every language of ≥ ${o.minLanguageRows} dev rows held to the limits; smaller languages are shown but were not held to them.`,
    '(— : fewer than 20 positives or negatives.)',
    EXIT_SECTION_END,
  ];
  return lines.join('\n');
}

/** The card with its early-exit section replaced (or added at the end). */
export function withExitSection(card: string, section: string): string {
  const a = card.indexOf(EXIT_SECTION_START);
  const b = card.indexOf(EXIT_SECTION_END);
  if (a >= 0 && b > a) return card.slice(0, a) + section + card.slice(b + EXIT_SECTION_END.length);
  return `${card.trimEnd()}\n\n${section}\n`;
}
