import { getOwn, setOwn } from './own-record';

describe('setOwn / getOwn', () => {
  it('stores any name as an own property, __proto__ included, without touching a prototype', () => {
    const record: Record<string, number> = {};
    for (const [i, key] of ['hate', 'constructor', 'toString', 'hasOwnProperty', '__proto__'].entries()) setOwn(record, key, i);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.keys(record)).toEqual(['hate', 'constructor', 'toString', 'hasOwnProperty', '__proto__']);
    expect(getOwn(record, '__proto__')).toBe(4);
    expect(getOwn(record, 'constructor')).toBe(1);
    expect(({} as Record<string, unknown>).constructor).toBe(Object);
    expect(JSON.parse(JSON.stringify(record))).toEqual(record);
  });

  it('reads only own properties', () => {
    const record: Record<string, number> = { hate: 0.5 };
    expect(getOwn(record, 'toString')).toBeUndefined();
    expect(getOwn(record, '__proto__')).toBeUndefined();
    expect(getOwn(record, 'hate')).toBe(0.5);
  });
});
