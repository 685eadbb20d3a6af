import { get } from '../api.js';
import { go, h } from '../dom.js';
import { dailyChart } from '../chart.js';
import { errorBox, loading, notice, percent, section, table } from '../ui.js';

const DAYS = [7, 14, 30, 90];
const LAST_PROJECT = 'cds.console.projectId';

/** GET /v1/agent/guardrails/metrics for one project: totals, rates and a daily chart. */
export async function guardrailsPage(main, { query }) {
  const projectId = query.get('projectId') ?? sessionStorage.getItem(LAST_PROJECT) ?? '';
  const days = DAYS.includes(Number(query.get('days'))) ? Number(query.get('days')) : 7;
  const out = h('div', {});
  main.append(h('h1', {}, 'Guardrail metrics'), form(projectId, days), out);
  if (!projectId) {
    out.append(notice('Name a project to see its guardrail decisions.'));
    return;
  }
  sessionStorage.setItem(LAST_PROJECT, projectId);
  out.append(loading());
  try {
    const m = await get(`/v1/agent/guardrails/metrics?${new URLSearchParams({ projectId, days: String(days) })}`);
    out.replaceChildren(cards(m), section(`Per day, last ${m.days} days (UTC)`, dailyChart(m.daily), dailyTable(m.daily)));
  } catch (err) {
    out.replaceChildren(errorBox(err));
  }
}

function form(projectId, days) {
  const project = h('input', { id: 'g-project', name: 'projectId', value: projectId, required: true, placeholder: 'project id', autocomplete: 'off' });
  const span = h(
    'select',
    { id: 'g-days', name: 'days' },
    DAYS.map((d) => h('option', { value: d, selected: d === days }, `${d} days`)),
  );
  const submit = (e) => {
    e.preventDefault();
    go(`#/guardrails?${new URLSearchParams({ projectId: project.value.trim(), days: span.value })}`);
  };
  return h(
    'form',
    { class: 'filters', on: { submit } },
    h('div', { class: 'field' }, h('label', { for: 'g-project' }, 'Project'), project),
    h('div', { class: 'field' }, h('label', { for: 'g-days' }, 'Window'), span),
    h('div', { class: 'field actions' }, h('button', { type: 'submit' }, 'Show')),
  );
}

function cards(m) {
  const card = (label, value, sub) =>
    h(
      'div',
      { class: 'card' },
      h('div', { class: 'card-label' }, label),
      h('div', { class: 'card-value' }, value),
      sub ? h('div', { class: 'muted' }, sub) : null,
    );
  return h(
    'div',
    { class: 'cards' },
    card('Decisions', m.total, `${m.skillVetting} skill vetting · ${m.runtimeAuthorization} runtime`),
    card('Blocked', m.blocked, `${percent(m.blockRate)} of decisions`),
    card('Approval required', m.approvalRequired, `${percent(m.approvalRate)} of decisions`),
  );
}

function dailyTable(daily) {
  return h(
    'details',
    { class: 'daily' },
    h('summary', {}, 'Daily numbers'),
    table(
      [
        { label: 'Date', cell: (d) => d.date },
        { label: 'Decisions', class: 'num', cell: (d) => d.total },
        { label: 'Blocked', class: 'num', cell: (d) => d.blocked },
        { label: 'Approval required', class: 'num', cell: (d) => d.approvalRequired },
      ],
      [...daily].reverse(),
    ),
  );
}
