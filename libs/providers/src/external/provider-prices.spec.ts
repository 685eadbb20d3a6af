import { DEFAULT_PROVIDER_PRICES, unitPrice } from './provider-prices';

describe('provider prices', () => {
  it('has the documented list prices', () => {
    expect(unitPrice('openai', 'text')).toBe(0);
    expect(unitPrice('openai', 'image')).toBe(0);
    expect(unitPrice('azure', 'text')).toBe(0.00075);
    expect(unitPrice('azure', 'image')).toBe(0.00075);
    expect(unitPrice('google-vision', 'image')).toBe(0.0015);
    expect(unitPrice('llamaguard', 'text')).toBe(0);
    expect(unitPrice('someone-else', 'text')).toBe(0);
    expect(Object.isFrozen(DEFAULT_PROVIDER_PRICES)).toBe(true);
  });

  it('lets an override for the modality win over one for the provider, and both over the defaults', () => {
    expect(unitPrice('azure', 'text', { azure: 0.001 })).toBe(0.001);
    expect(unitPrice('azure', 'image', { azure: 0.001, 'azure.image': 0.002 })).toBe(0.002);
    expect(unitPrice('azure', 'text', { 'azure.image': 0.002 })).toBe(0.00075);
    expect(unitPrice('llamaguard', 'text', { llamaguard: 0.0002 })).toBe(0.0002);
  });
});
