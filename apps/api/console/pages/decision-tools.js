import { get, post } from '../api.js';
import { h } from '../dom.js';
import { actionBadge, busy, errorBox, section } from '../ui.js';
import { categoriesTable } from './categories.js';

/** POST /v1/decisions/{id}/replay: the stored signals under another policy (no provider
 * is called, nothing is recorded), the new action beside the old. */
export function replaySection(d) {
  const select = h('select', { id: 'replay-policy', name: 'policyId' }, h('option', { value: d.policyId }, d.policyId));
  const button = h('button', { type: 'submit' }, 'Replay');
  const out = h('div', { class: 'replay-out', 'aria-live': 'polite' });
  get('/v1/policies').then(
    ({ policies }) => {
      select.replaceChildren(...policies.map((p) => h('option', { value: p.policyId, selected: p.policyId === d.policyId }, `${p.policyId} — ${p.name}`)));
    },
    (err) => out.replaceChildren(errorBox(err)),
  );
  const run = busy(button, out, async () => {
    const r = await post(`/v1/decisions/${encodeURIComponent(d.decisionId)}/replay`, { policyId: select.value });
    const policy = await get(`/v1/policies/${encodeURIComponent(r.policyId)}`).catch(() => null);
    out.replaceChildren(
      h(
        'div',
        { class: 'compare' },
        h(
          'div',
          { class: 'compare-side' },
          h('div', { class: 'muted' }, 'Original'),
          actionBadge(r.original.action),
          ` ${r.original.policyId} v${r.original.policyVersion}`,
        ),
        h('div', { class: 'compare-arrow', 'aria-hidden': 'true' }, '→'),
        h(
          'div',
          { class: 'compare-side', 'data-testid': 'replayed' },
          h('div', { class: 'muted' }, 'Replayed'),
          actionBadge(r.action),
          ` ${r.policyId} v${r.policyVersion}`,
        ),
      ),
      categoriesTable(r.categories, policy),
    );
  });
  return section(
    'Replay under another policy',
    h(
      'form',
      {
        class: 'inline',
        on: {
          submit: (e) => {
            e.preventDefault();
            void run();
          },
        },
      },
      h('label', { for: 'replay-policy' }, 'Policy'),
      select,
      button,
    ),
    out,
  );
}

/** GET /v1/decisions/{id}/curl: the command that reproduces the check. */
export function curlSection(d) {
  const out = h('div', { class: 'curl-out' });
  const button = h('button', { type: 'button', class: 'secondary' }, 'Show curl');
  button.addEventListener(
    'click',
    busy(button, out, async () => {
      const { curl } = await get(`/v1/decisions/${encodeURIComponent(d.decisionId)}/curl`);
      const copy = h('button', { type: 'button', class: 'secondary small' }, 'Copy');
      copy.addEventListener('click', () =>
        navigator.clipboard?.writeText(curl).then(
          () => {
            copy.textContent = 'Copied';
          },
          () => {
            copy.textContent = 'Copy failed';
          },
        ),
      );
      out.replaceChildren(h('pre', { class: 'curl' }, curl), copy);
    }),
  );
  return section('Reproduce', h('p', { class: 'muted' }, 'A curl command that sends the same check again.'), button, out);
}
