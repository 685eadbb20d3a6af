import { get } from '../api.js';
import { fill, h } from '../dom.js';
import { actionBadge, facts, formatTime, loading, notice, section } from '../ui.js';
import { categoriesTable } from './categories.js';
import { listHash } from './decisions.js';
import { partsSection, videoSection } from './decision-media.js';
import { curlSection, replaySection } from './decision-tools.js';

/** GET /v1/decisions/{id}: what was decided on, why, and tools to reproduce or replay it. */
export async function decisionPage(main, { params: [id], onLeave }) {
  const body = h('div', {}, loading());
  main.append(h('p', {}, h('a', { href: listHash() }, '← Decisions')), h('h1', {}, 'Decision'), body);
  const d = await get(`/v1/decisions/${encodeURIComponent(id)}`);
  const policy = await get(`/v1/policies/${encodeURIComponent(d.policyId)}`).catch(() => null);
  fill(
    body,
    summary(d),
    section('Content', h('pre', { class: 'content' }, d.content)),
    section(
      'Categories',
      policy && policy.version !== d.policyVersion
        ? notice(`Decided under version ${d.policyVersion} of ${d.policyId}; the policy is now at version ${policy.version}.`)
        : null,
      policy ? null : notice('The policy could not be read: only the thresholds recorded with the decision are shown.'),
      categoriesTable(d.categories, policy),
    ),
    partsSection(d, onLeave),
    d.contentType === 'video' ? videoSection(d, onLeave) : null,
    signalsSection(d.signals),
    replaySection(d),
    curlSection(d),
  );
}

function summary(d) {
  const metadata = d.metadata && Object.keys(d.metadata).length > 0 ? h('pre', { class: 'json' }, JSON.stringify(d.metadata, null, 2)) : '—';
  return h(
    'div',
    { class: 'summary' },
    h('div', { class: 'summary-action' }, actionBadge(d.action), h('span', { class: 'muted' }, d.safe ? 'safe' : 'not safe')),
    facts([
      ['Decision', h('code', {}, d.decisionId)],
      ['Time', formatTime(d.timestamp)],
      ['Policy', `${d.policyId} (version ${d.policyVersion})`],
      ['Provider', d.provider],
      ['Content type', d.contentType],
      ['Language', d.language],
      ['Request id', d.requestId],
      ['Latency', typeof d.latency === 'number' ? `${d.latency} ms` : undefined],
      ['Cost', typeof d.cost === 'number' ? `$${d.cost}` : undefined],
      ['Metadata', metadata],
    ]),
  );
}

function signalsSection(signals) {
  const providers = Object.entries(signals ?? {});
  if (providers.length === 0) return null;
  return section(
    'Provider signals',
    providers.map(([provider, map]) =>
      h(
        'details',
        { class: 'signals' },
        h('summary', {}, `${provider} (${Object.keys(map).length} signals)`),
        h(
          'table',
          { class: 'data compact' },
          h(
            'tbody',
            {},
            Object.entries(map)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([name, v]) => h('tr', {}, h('th', { scope: 'row' }, name), h('td', { class: 'num' }, typeof v === 'number' ? v.toFixed(4) : String(v)))),
          ),
        ),
      ),
    ),
  );
}
