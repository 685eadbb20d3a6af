import { probeKey, session } from '../api.js';
import { fill, go, h } from '../dom.js';
import { errorBox, notice } from '../ui.js';

/** Asks for an API key, checks it against the service, keeps it for this tab only. */
export function signInPage({ expired, next }) {
  const input = h('input', { id: 'api-key', name: 'apiKey', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true });
  const button = h('button', { type: 'submit' }, 'Sign in');
  const out = h('div', { class: 'sign-in-out' }, expired ? notice('Your session ended: the key was refused. Sign in again.') : null);
  const form = h(
    'form',
    {
      class: 'sign-in',
      on: {
        submit: async (e) => {
          e.preventDefault();
          const key = input.value.trim();
          if (!key) return;
          button.disabled = true;
          const refused = await probeKey(key);
          button.disabled = false;
          if (refused) {
            fill(out, errorBox(refused));
            input.select();
            return;
          }
          session.signIn(key);
          go(next && next.startsWith('#/') && !next.startsWith('#/sign-in') ? next : '#/decisions');
        },
      },
    },
    h('h1', {}, 'Moderator console'),
    h('p', { class: 'muted' }, 'Sign in with an API key of this service. It is kept in this browser tab only and sent with each request.'),
    h('label', { for: 'api-key' }, 'API key'),
    input,
    button,
    out,
  );
  queueMicrotask(() => input.focus());
  return h('div', { class: 'sign-in-page' }, form);
}
