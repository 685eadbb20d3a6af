import { metadataProblem } from './metadata.validator';

describe('metadataProblem', () => {
  it('accepts ordinary metadata', () => {
    expect(metadataProblem({ userId: 'u1', ip: '1.2.3.4', tags: ['a', 'b'], nested: { a: { b: 1 } } })).toBeNull();
  });

  it('refuses depth, key count, size, non-finite numbers and non-objects without recursing', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    expect(metadataProblem(deep)).toMatch(/deeper than 8/);
    expect(metadataProblem(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i])))).toMatch(/more than 256 keys/);
    expect(metadataProblem({ big: 'x'.repeat(20_000) })).toMatch(/larger than 16384 bytes/);
    expect(metadataProblem({ n: Infinity })).toMatch(/finite/);
    expect(metadataProblem([1, 2])).toMatch(/object/);
    expect(metadataProblem('x')).toMatch(/object/);
  });
});
