import { parsePolicyYaml } from '@cds/policy';
import { providerChains, RoutingProviders } from './provider-routing';

const yaml = (...lines: string[]) => lines.join('\n');
/** local and openai score text; google-vision images only; azure is not configured. */
const text: RoutingProviders = { defaultFor: 'local', canScore: (n) => n === 'local' || n === 'openai' };
const image: RoutingProviders = { defaultFor: 'local', canScore: (n) => ['local', 'openai', 'google-vision'].includes(n) };

describe('providerChains', () => {
  it('routes each category to its rule provider, else the policy provider, else the default; then the fallback (default [local])', () => {
    const policy = parsePolicyYaml(
      yaml(
        'name: P',
        'provider: openai',
        'rules:',
        '  - {category: sexual, threshold: 0.5, provider: google-vision, action: block}',
        '  - {category: hate, threshold: 0.5, action: block}',
        '  - {category: violence, threshold: 0.5, provider: local, action: flag}',
      ),
    );
    expect(Object.fromEntries(providerChains(policy, image))).toEqual({
      sexual: ['google-vision', 'local'],
      hate: ['openai', 'local'],
      violence: ['local'],
    });
    // google-vision cannot score text: the category goes to the fallback.
    expect(providerChains(policy, text).get('sexual')).toEqual(['local']);
  });

  it('uses the policy fallback list in order, and none with fallback: []', () => {
    const policy = parsePolicyYaml(yaml('name: P', 'provider: azure', 'fallback: [openai, local]', 'categories:', '  hate: {threshold: 0.5, action: block}'));
    // azure is not configured here: left out, openai first.
    expect(providerChains(policy, text).get('hate')).toEqual(['openai', 'local']);
    const strict = parsePolicyYaml(yaml('name: P', 'provider: azure', 'fallback: []', 'categories:', '  hate: {threshold: 0.5, action: block}'));
    expect(providerChains(strict, text).get('hate')).toEqual([]);
  });

  it('lets the modality default score what an image-only policy provider cannot, unless fallback is []', () => {
    const policy = parsePolicyYaml(yaml('name: P', 'provider: google-vision', 'fallback: [azure]', 'categories:', '  sexual: {threshold: 0.5, action: block}'));
    expect(providerChains(policy, text).get('sexual')).toEqual([]);
    const open = parsePolicyYaml(yaml('name: P', 'provider: google-vision', 'categories:', '  sexual: {threshold: 0.5, action: block}'));
    expect(providerChains(open, text).get('sexual')).toEqual(['local']);
  });

  it('scores without a policy (video frames) with the default, then local', () => {
    expect(Object.fromEntries(providerChains(undefined, { defaultFor: 'google-vision', canScore: () => true }))).toEqual({ '*': ['google-vision', 'local'] });
  });
});
