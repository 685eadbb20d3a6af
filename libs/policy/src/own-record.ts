/** Records keyed by caller-chosen names. Reads look at own properties only (so a
 * category called `constructor` is not Object.prototype.constructor) and writes
 * define own properties (so a key `__proto__` can never replace a prototype). */
export function getOwn<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
