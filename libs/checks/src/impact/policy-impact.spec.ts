import { parsePolicyYaml } from '@cds/policy';
import { ReplayedDecision, summarizeImpact } from './policy-impact';

const OLD = parsePolicyYaml('name: old\ncategories:\n  hate: { threshold: 0.7, action: block }\n  violence: { threshold: 0.7, action: flag }\n');
const NEW = parsePolicyYaml('name: new\ncategories:\n  hate: { threshold: 0.5, action: block }\n  violence: { threshold: 0.9, action: flag }\n');
const cat = (category: string, triggered: boolean) => ({ category, score: triggered ? 0.8 : 0.1, threshold: 0.5, triggered });

const d = (id: string, before: ReplayedDecision['before'], after: ReplayedDecision['after']): ReplayedDecision => ({ decisionId: id, before, after });

describe('summarizeImpact', () => {
  it('counts each action change with the categories that drove it and samples', () => {
    const summary = summarizeImpact(
      [
        d('a', { action: 'allow', categories: [cat('hate', false)] }, { action: 'block', categories: [cat('hate', true), cat('violence', false)] }),
        d('b', { action: 'allow', categories: [cat('hate', false)] }, { action: 'block', categories: [cat('hate', true)] }),
        d('c', { action: 'flag', categories: [cat('violence', true)] }, { action: 'allow', categories: [cat('violence', false)] }),
        d('e', { action: 'block', categories: [cat('hate', true)] }, { action: 'block', categories: [cat('hate', true)] }),
      ],
      OLD,
      NEW,
    );
    expect(summary).toMatchObject({ evaluated: 4, unchanged: 1, changed: 3 });
    expect(summary.changes).toEqual([
      { from: 'allow', to: 'block', count: 2, categories: [{ category: 'hate', count: 2 }], sampleDecisionIds: ['a', 'b'] },
      { from: 'flag', to: 'allow', count: 1, categories: [{ category: 'violence', count: 1 }], sampleDecisionIds: ['c'] },
    ]);
    expect(summary.actions).toEqual({ before: { allow: 2, warn: 0, flag: 1, block: 1 }, after: { allow: 1, warn: 0, flag: 0, block: 3 } });
  });

  it('keeps at most five samples and reports nothing for no decisions', () => {
    const many = Array.from({ length: 9 }, (_, i) => d(`x${i}`, { action: 'allow', categories: [] }, { action: 'flag', categories: [cat('violence', true)] }));
    const s = summarizeImpact(many, OLD, NEW);
    expect(s.changes[0]).toMatchObject({ count: 9, sampleDecisionIds: ['x0', 'x1', 'x2', 'x3', 'x4'], categories: [{ category: 'violence', count: 9 }] });
    expect(summarizeImpact([], null, NEW)).toMatchObject({ evaluated: 0, unchanged: 0, changed: 0, changes: [] });
  });
});
