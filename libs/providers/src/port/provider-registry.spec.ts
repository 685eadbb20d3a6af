import { foldByProvider, mergeSignals, StaticProviderRegistry } from './provider-registry';
import { ModerationProvider } from './provider.port';

const provider = (name: string, modalities: ('text' | 'image')[], folding: Record<string, string[]>): ModerationProvider => ({
  name,
  modalities,
  folding,
  score: async () => ({ signals: {}, cost: 0 }),
});

describe('provider registry', () => {
  const a = provider('a', ['text'], { hate: ['slur', 'hate'] });
  const b = provider('b', ['text', 'image'], { hate: ['hateful'], sexual: ['nudity'] });

  it('folds each provider with its own map and merges categories by max', () => {
    const registry = new StaticProviderRegistry([a, b], { text: 'a', image: 'b' });
    const folded = registry.fold({ a: { slur: 0.4 }, b: { hateful: 0.7, nudity: 0.2 } });
    expect(folded).toMatchObject({ hate: 0.7, sexual: 0.2, slur: 0.4, hateful: 0.7, nudity: 0.2 });
    // b's signal names mean nothing to a's map, and the other way round.
    expect(registry.fold({ a: { nudity: 0.9 } }).sexual).toBeUndefined();
  });

  it('folds signals of a provider no longer configured with the default map (replay calls nobody)', () => {
    const registry = new StaticProviderRegistry([a, b], { text: 'a', image: 'b' });
    expect(registry.fold({ gone: { slur: 0.3 } }).hate).toBe(0.3);
  });

  it('picks providers by name and by modality, and names the configured ones when asked for another', () => {
    const registry = new StaticProviderRegistry([a, b], { text: 'a', image: 'b' });
    expect(registry.forModality('image').name).toBe('b');
    expect(registry.get('a')).toBe(a);
    expect(() => registry.get('openai')).toThrow(expect.objectContaining({ code: 'PROVIDER_NOT_CONFIGURED', details: expect.stringContaining('a, b') }));
    expect(() => new StaticProviderRegistry([a], { text: 'a', image: 'a' })).toThrow(/not configured for image/);
  });

  it('merges signal maps by max, ignoring what is not a number, never touching prototypes', () => {
    expect(mergeSignals({ x: 0.2, y: 0.9 }, { x: 0.5, z: NaN as number })).toEqual({ x: 0.5, y: 0.9 });
    const merged = mergeSignals(JSON.parse('{"__proto__": 0.9, "x": 0.1}'));
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(foldByProvider({}, () => ({}))).toEqual({});
  });

  it('describes the configured providers with their circuit, then the known ones not configured', () => {
    const external: ModerationProvider = { ...provider('ext', ['text'], {}), circuitState: () => 'open' };
    const registry = new StaticProviderRegistry([a, b, external], { text: 'a', image: 'b' }, [
      { name: 'ext', modalities: ['text'] },
      { name: 'google-vision', modalities: ['image'] },
    ]);
    expect(registry.describe()).toEqual([
      { name: 'a', configured: true, modalities: ['text'], circuit: 'closed' },
      { name: 'b', configured: true, modalities: ['text', 'image'], circuit: 'closed' },
      { name: 'ext', configured: true, modalities: ['text'], circuit: 'open' },
      { name: 'google-vision', configured: false, modalities: ['image'], circuit: 'closed' },
    ]);
    expect(registry.has('google-vision')).toBe(false);
  });
});
