/** Records keyed by caller-chosen names. Reads look at own properties only (so a
 * category called `constructor` is not Object.prototype.constructor) and writes
 * define own properties (so a key `__proto__` can never replace a prototype). */
export function getOwn<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  // Only `__proto__` is an accessor on Object.prototype; any other name assigned is an own
  // data property. defineProperty for every key cost ~2 % of a check's CPU (it leaves the
  // object in dictionary mode).
  if (key === '__proto__') Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}
