// Charts drawn as inline SVG with DOM calls: no library, nothing parsed from strings.
import { h, s } from './dom.js';

/** A horizontal bar for a score in [0, 1] with a tick at the threshold. */
export function scoreBar(score, threshold) {
  const w = 120;
  const x = (v) => Math.max(0, Math.min(1, Number(v) || 0)) * w;
  const over = typeof threshold === 'number' && score >= threshold;
  return s(
    'svg',
    { class: 'score-bar', width: w, height: 12, viewBox: `0 0 ${w} 12`, role: 'img', 'aria-label': `score ${score}` },
    s('rect', { class: 'track', x: 0, y: 2, width: w, height: 8, rx: 2 }),
    s('rect', { class: over ? 'fill over' : 'fill', x: 0, y: 2, width: x(score), height: 8, rx: 2 }),
    typeof threshold === 'number' ? s('line', { class: 'threshold', x1: x(threshold), x2: x(threshold), y1: 0, y2: 12 }) : null,
  );
}

const SERIES = [
  ['total', 'Decisions'],
  ['blocked', 'Blocked'],
  ['approvalRequired', 'Approval required'],
];

/** Grouped daily bars of guardrail decisions: total, blocked, approval required. */
export function dailyChart(daily) {
  const width = 820;
  const height = 260;
  const pad = { left: 44, right: 12, top: 12, bottom: 34 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const max = niceMax(Math.max(1, ...daily.flatMap((d) => SERIES.map(([k]) => d[k] ?? 0))));
  const y = (v) => pad.top + plotH - (v / max) * plotH;
  const slot = plotW / Math.max(1, daily.length);
  const bar = Math.max(1, Math.min(18, (slot - 4) / SERIES.length));
  const labelEvery = Math.ceil(daily.length / 14);

  const grid = [0, max / 2, max].map((v) =>
    s(
      'g',
      { class: 'tick' },
      s('line', { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v) }),
      s('text', { x: pad.left - 6, y: y(v) + 4, 'text-anchor': 'end' }, formatCount(v)),
    ),
  );
  const groups = daily.map((d, i) => {
    const x0 = pad.left + i * slot + (slot - bar * SERIES.length) / 2;
    return s(
      'g',
      { class: 'day' },
      SERIES.map(([key, label], j) =>
        s(
          'rect',
          { class: `bar bar-${key}`, x: x0 + j * bar, y: y(d[key] ?? 0), width: Math.max(1, bar - 1), height: Math.max(0, plotH + pad.top - y(d[key] ?? 0)) },
          s('title', {}, `${d.date} · ${label}: ${d[key] ?? 0}`),
        ),
      ),
      i % labelEvery === 0
        ? s('text', { class: 'x-label', x: pad.left + i * slot + slot / 2, y: height - 12, 'text-anchor': 'middle' }, d.date.slice(5))
        : null,
    );
  });
  const svg = s(
    'svg',
    { class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': 'Guardrail decisions per day' },
    grid,
    s('line', { class: 'axis', x1: pad.left, x2: width - pad.right, y1: y(0), y2: y(0) }),
    groups,
  );
  const legend = h(
    'ul',
    { class: 'legend' },
    SERIES.map(([key, label]) => h('li', {}, h('span', { class: `swatch swatch-${key}` }), label)),
  );
  return h('figure', { class: 'chart-figure' }, svg, legend);
}

/** An even round number at or above n, so the middle tick is a whole count too. */
function niceMax(n) {
  const step = 10 ** Math.floor(Math.log10(n));
  return [2, 4, 6, 8, 10].map((m) => m * step).find((v) => v >= n) ?? 10 * step;
}

function formatCount(v) {
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}
