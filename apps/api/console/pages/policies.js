import { get, post } from '../api.js';
import { go, h } from '../dom.js';
import { busy, formatTime, loading, notice, table } from '../ui.js';
import { impactReport } from './policy-impact.js';

const NEW_POLICY = 'name: New policy\ncategories:\n  hate: { threshold: 0.7, action: block }\n  violence: { threshold: 0.7, action: flag }\n';

/** The policies, and an editor for one: its YAML, what a change would do to the decisions
 * made under it (impact), and save. */
export async function policiesPage(main, { params: [selected], query }) {
  const list = h('div', { class: 'policy-list' }, loading());
  const editor = h('div', { class: 'policy-editor' });
  main.append(h('h1', {}, 'Policies'), h('div', { class: 'split' }, list, editor));
  const { policies } = await get('/v1/policies');
  list.replaceChildren(
    table(
      [
        {
          label: 'Policy',
          cell: (p) => h('a', { href: `#/policies/${encodeURIComponent(p.policyId)}`, class: p.policyId === selected ? 'active' : null }, p.policyId),
        },
        { label: 'Name', cell: (p) => p.name },
        { label: 'Version', class: 'num', cell: (p) => (p.builtIn ? 'built in' : p.version) },
      ],
      policies,
      { empty: 'No policies.' },
    ),
    h('p', {}, h('a', { href: '#/policies', class: 'button secondary' }, 'New policy')),
  );
  const policy = policies.find((p) => p.policyId === selected) ?? null;
  if (selected && !policy) editor.append(notice(`No policy ${selected}.`));
  if (policy && query.has('saved')) editor.append(notice(`Saved: version ${policy.version}.`));
  editor.append(policyEditor(policy));
}

function policyEditor(policy) {
  const id = h('input', { id: 'policy-id', name: 'policyId', value: policy?.policyId ?? '', required: true, placeholder: 'my-policy', autocomplete: 'off' });
  const text = policy?.yamlContent ?? NEW_POLICY;
  const yaml = h('textarea', {
    id: 'policy-yaml',
    name: 'yamlContent',
    rows: Math.min(24, Math.max(8, text.split('\n').length + 1)),
    spellcheck: 'false',
    value: text,
  });
  const impactButton = h('button', { type: 'button', disabled: !policy }, 'Impact');
  const saveButton = h('button', { type: 'submit', class: 'secondary' }, 'Save');
  const out = h('div', { class: 'policy-out', 'aria-live': 'polite' });

  impactButton.addEventListener(
    'click',
    busy(impactButton, out, async () => {
      out.replaceChildren(loading());
      const report = await post(`/v1/policies/${encodeURIComponent(policy.policyId)}/impact`, { yamlContent: yaml.value });
      out.replaceChildren(impactReport(report));
    }),
  );
  const save = busy(saveButton, out, async () => {
    const saved = await post('/v1/policies', { policyId: id.value.trim(), yamlContent: yaml.value });
    go(`#/policies/${encodeURIComponent(saved.policyId)}?saved`);
  });

  return h(
    'form',
    {
      class: 'editor',
      on: {
        submit: (e) => {
          e.preventDefault();
          void save();
        },
      },
    },
    h('h2', {}, policy ? `${policy.policyId} — ${policy.name}` : 'New policy'),
    policy
      ? h(
          'p',
          { class: 'muted' },
          policy.builtIn ? 'Built in: saving it under this id makes it your own.' : `Version ${policy.version}, updated ${formatTime(policy.updatedAt)}.`,
        )
      : null,
    h('div', { class: 'field' }, h('label', { for: 'policy-id' }, 'Policy id'), id),
    h('div', { class: 'field' }, h('label', { for: 'policy-yaml' }, 'YAML'), yaml),
    h(
      'div',
      { class: 'buttons' },
      impactButton,
      saveButton,
      h(
        'span',
        { class: 'muted' },
        policy ? 'Impact replays the decisions made under this policy with the YAML above; nothing is recorded.' : 'Save it first to see its impact.',
      ),
    ),
    out,
  );
}
