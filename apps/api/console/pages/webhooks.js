import { get } from '../api.js';
import { h } from '../dom.js';
import { errorBox, facts, formatTime, loading, section, table } from '../ui.js';

/** GET /v1/webhooks, and one webhook's latest deliveries. */
export async function webhooksPage(main, { params: [selected] }) {
  const deliveries = h('div', {});
  main.append(h('h1', {}, 'Webhooks'));
  const { webhooks } = await get('/v1/webhooks');
  main.append(
    table(
      [
        {
          label: 'URL',
          class: 'wrap',
          cell: (w) => h('a', { href: `#/webhooks/${encodeURIComponent(w.id)}`, class: w.id === selected ? 'active' : null }, w.url),
        },
        { label: 'Events', cell: (w) => w.events.join(', ') },
        {
          label: 'Enabled',
          cell: (w) => [
            h('span', { class: w.enabled ? 'ok' : 'bad' }, w.enabled ? 'yes' : 'no'),
            w.disabledReason ? h('div', { class: 'muted' }, w.disabledReason) : null,
          ],
        },
        { label: 'Description', cell: (w) => w.description ?? '—' },
        { label: 'Created', class: 'nowrap', cell: (w) => formatTime(w.createdAt) },
      ],
      webhooks,
      { empty: 'No webhooks registered.' },
    ),
    deliveries,
  );
  const webhook = webhooks.find((w) => w.id === selected);
  if (webhook) await showDeliveries(deliveries, webhook);
}

async function showDeliveries(out, w) {
  out.replaceChildren(loading());
  try {
    const { deliveries } = await get(`/v1/webhooks/${encodeURIComponent(w.id)}/deliveries?limit=50`);
    out.replaceChildren(
      section(
        `Deliveries to ${w.url}`,
        facts([
          ['Webhook', h('code', {}, w.id)],
          ['Updated', formatTime(w.updatedAt)],
        ]),
        table(
          [
            { label: 'Time', class: 'nowrap', cell: (d) => formatTime(d.timestamp) },
            { label: 'Event', cell: (d) => [d.eventType, d.test ? [' ', h('span', { class: 'tag' }, 'test')] : null] },
            { label: 'Status', cell: (d) => h('span', { class: d.status === 'succeeded' ? 'ok' : 'bad' }, d.status) },
            { label: 'Response', class: 'num', cell: (d) => d.responseCode ?? '—' },
            { label: 'Attempt', class: 'num', cell: (d) => d.attempt },
            { label: 'Took', class: 'num', cell: (d) => `${d.durationMs} ms` },
            { label: 'Error / next attempt', cell: (d) => [d.error ?? '', d.nextAttemptAt ? ` retry ${formatTime(d.nextAttemptAt)}` : ''].join('') || '—' },
          ],
          deliveries,
          { empty: 'No deliveries yet.' },
        ),
      ),
    );
  } catch (err) {
    out.replaceChildren(errorBox(err));
  }
}
