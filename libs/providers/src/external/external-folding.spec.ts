import { DEFAULT_SIGNAL_FOLDING, NAME_PATTERN, PROMPT_ATTACK_CATEGORIES, SignalFolding } from '@cds/policy';
import { AZURE_SIGNAL_FOLDING, AZURE_SIGNALS, blocklistSignal } from './azure.signals';
import { GOOGLE_VISION_SIGNAL_FOLDING, GOOGLE_VISION_SIGNALS } from './google-vision.signals';
import { LLAMAGUARD_HAZARDS, LLAMAGUARD_SIGNAL_FOLDING } from './llamaguard.signals';
import { OPENAI_SIGNAL_FOLDING, OPENAI_SIGNALS } from './openai.signals';

const CATEGORIES = [...Object.keys(DEFAULT_SIGNAL_FOLDING), ...PROMPT_ATTACK_CATEGORIES];

describe.each<[string, SignalFolding, string[]]>([
  ['openai', OPENAI_SIGNAL_FOLDING, Object.values(OPENAI_SIGNALS)],
  ['azure', AZURE_SIGNAL_FOLDING, [...Object.values(AZURE_SIGNALS), 'blocklist', 'user_prompt_attack', 'document_attack']],
  [
    'llamaguard',
    LLAMAGUARD_SIGNAL_FOLDING,
    [...Object.values(LLAMAGUARD_HAZARDS), 'unsafe', 'prompt_guard_malicious', 'prompt_guard_injection', 'prompt_guard_jailbreak'],
  ],
  ['google-vision', GOOGLE_VISION_SIGNAL_FOLDING, [...GOOGLE_VISION_SIGNALS]],
])('%s folding', (_name, folding, signals) => {
  it('targets only the service categories and folds only signals the provider emits', () => {
    for (const [category, folded] of Object.entries(folding)) {
      expect(CATEGORIES).toContain(category);
      for (const s of folded) expect(signals).toContain(s);
    }
  });

  it('names every signal so that a policy can threshold it', () => {
    for (const s of signals) expect(s).toMatch(NAME_PATTERN);
  });
});

describe('what each provider really scores', () => {
  it.each<[SignalFolding, string[]]>([
    [OPENAI_SIGNAL_FOLDING, ['sexual', 'hate', 'harassment', 'violence', 'self-harm']],
    [AZURE_SIGNAL_FOLDING, ['sexual', 'hate', 'violence', 'self-harm', 'prompt_injection', 'jailbreak']],
    [LLAMAGUARD_SIGNAL_FOLDING, ['sexual', 'hate', 'violence', 'self-harm', 'prompt_injection', 'jailbreak']],
    [GOOGLE_VISION_SIGNAL_FOLDING, ['sexual', 'violence']],
  ])('%j', (folding, categories) => {
    expect(Object.keys(folding).sort()).toEqual([...categories].sort());
  });

  it('names a blocklist signal after the list', () => {
    expect(blocklistSignal('Brand.Names~2')).toBe('blocklist_brand_names_2');
    expect(blocklistSignal('x'.repeat(64))).toMatch(NAME_PATTERN);
  });
});
