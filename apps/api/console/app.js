// The console's shell: sign-in, the sidebar, and hash routing to the pages.
import { session } from './api.js';
import { fill, go, h } from './dom.js';
import { errorBox } from './ui.js';
import { signInPage } from './pages/sign-in.js';
import { decisionsPage } from './pages/decisions.js';
import { decisionPage } from './pages/decision.js';
import { policiesPage } from './pages/policies.js';
import { guardrailsPage } from './pages/guardrails.js';
import { webhooksPage } from './pages/webhooks.js';

const ROUTES = [
  { pattern: /^\/decisions\/([^/]+)$/, nav: 'decisions', page: decisionPage },
  { pattern: /^\/decisions$/, nav: 'decisions', page: decisionsPage },
  { pattern: /^\/policies(?:\/([^/]+))?$/, nav: 'policies', page: policiesPage },
  { pattern: /^\/guardrails$/, nav: 'guardrails', page: guardrailsPage },
  { pattern: /^\/webhooks(?:\/([^/]+))?$/, nav: 'webhooks', page: webhooksPage },
];

const NAV = [
  ['decisions', 'Decisions'],
  ['policies', 'Policies'],
  ['guardrails', 'Guardrail metrics'],
  ['webhooks', 'Webhooks'],
];

/** Cleanups of the page shown (object URLs to revoke), run when another is shown. */
let cleanups = [];

function parseHash() {
  const raw = location.hash.replace(/^#/, '') || '/decisions';
  const [path, query = ''] = raw.split('?', 2);
  return { path, query: new URLSearchParams(query) };
}

function shell(active) {
  const main = h('main', { id: 'main', tabindex: '-1' });
  const nav = h(
    'nav',
    { 'aria-label': 'Sections' },
    h(
      'ul',
      {},
      NAV.map(([id, label]) =>
        h('li', {}, h('a', { href: `#/${id}`, class: id === active ? 'active' : null, 'aria-current': id === active ? 'page' : null }, label)),
      ),
    ),
  );
  const signOut = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      on: {
        click: () => {
          session.signOut();
          go('#/sign-in');
        },
      },
    },
    'Sign out',
  );
  const aside = h(
    'aside',
    { class: 'sidebar' },
    h('div', { class: 'brand' }, 'Content decisions', h('small', {}, 'Moderator console')),
    nav,
    h('div', { class: 'sidebar-foot' }, signOut),
  );
  return { layout: h('div', { class: 'layout' }, aside, main), main };
}

async function render() {
  for (const fn of cleanups.splice(0)) fn();
  const root = document.getElementById('root');
  const { path, query } = parseHash();
  if (path === '/sign-in' || !session.key()) {
    if (session.key()) session.signOut();
    const next = path === '/sign-in' ? query.get('next') : location.hash;
    fill(root, signInPage({ expired: query.has('expired'), next }));
    return;
  }
  const route = ROUTES.find((r) => r.pattern.test(path));
  const { layout, main } = shell(route?.nav);
  fill(root, layout);
  if (!route) {
    main.append(h('h1', {}, 'Not found'), h('p', {}, 'No such page.'));
    return;
  }
  try {
    const params = path
      .match(route.pattern)
      .slice(1)
      .map((p) => (p === undefined ? undefined : decodeURIComponent(p)));
    await route.page(main, { params, query, onLeave: (fn) => cleanups.push(fn) });
  } catch (err) {
    if (main.isConnected) main.append(errorBox(err));
  }
}

window.addEventListener('hashchange', () => void render());
void render();
