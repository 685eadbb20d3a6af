/**
 * One declaration per event body: a map of field -> check. The check is what an event is
 * validated with when written and read (event-schema.ts), and its type is the field's
 * TypeScript type (DataOf), so the two cannot part. A check may look at less than its type
 * says (`shallow`): events already on the log were accepted by those checks, and a stricter
 * read would park them.
 */
export type Check<T> = (v: unknown) => v is T;
/** A field sometimes absent: its check passes `undefined`. */
export type Optional<T> = Check<T | undefined> & { readonly optional: true };
export type Fields = Readonly<Record<string, Check<unknown>>>;

type Out<C> = C extends Check<infer T> ? T : never;
type OptionalKeys<F> = { [K in keyof F]: F[K] extends { optional: true } ? K : never }[keyof F];
type Flat<T> = { [K in keyof T]: T[K] } & {};
/** The body an event's fields declare. */
export type DataOf<F extends Fields> = Flat<
  { -readonly [K in Exclude<keyof F, OptionalKeys<F>>]: Out<F[K]> } & { -readonly [K in OptionalKeys<F>]?: Exclude<Out<F[K]>, undefined> }
>;

export const str: Check<string> = (v): v is string => typeof v === 'string';
export const num: Check<number> = (v): v is number => typeof v === 'number' && Number.isFinite(v);
export const bool: Check<boolean> = (v): v is boolean => typeof v === 'boolean';
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const strArr: Check<string[]> = (v): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

export const orNull =
  <T>(check: Check<T>): Check<T | null> =>
  (v): v is T | null =>
    v === null || check(v);

export function optional<T>(check: Check<T>): Optional<T> {
  return Object.assign((v: unknown): v is T | undefined => v === undefined || check(v), { optional: true as const });
}

/** One of the listed strings. */
export const oneOf =
  <const V extends readonly string[]>(values: V): Check<V[number]> =>
  (v): v is V[number] =>
    typeof v === 'string' && values.includes(v);

/** Typed as T, checked only as far as `check` goes (see the file's comment). */
export const shallow = <T>(check: (v: unknown) => boolean): Check<T> => check as Check<T>;
/** Any object, typed as T. */
export const object = <T extends object = Record<string, unknown>>(): Check<T> => shallow<T>(isObject);
/** Any array, typed as T[]. */
export const list = <T>(): Check<T[]> => shallow<T[]>(Array.isArray);
/** Not checked at all (a field added after events without it were written), typed as T. */
export const unchecked = <T>(): Check<T> => shallow<T>(() => true);
