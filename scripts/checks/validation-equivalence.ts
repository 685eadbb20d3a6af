import 'reflect-metadata';
import { isDeepStrictEqual } from 'node:util';
import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { compileDto } from '@cds/validation';
import { AppModule } from '../../apps/api/src/app.module';
import { CompiledValidationPipe, validationPipe } from '../../apps/api/src/http/validation';

/**
 * The compiled validation fast path against Nest's own ValidationPipe with the same
 * options, on every DTO the api declares (loading AppModule declares them all): for each
 * of many bodies both must answer the same value (same class, same fields) or throw the
 * same error; `fastAccepted` counts the bodies the fast path took itself. The bodies mix values a DTO accepts with every kind of wrong one, one
 * property at a time and at random. Run on the build by
 * apps/api/src/http/compiled-validation.int-spec.ts (jest cannot load Nest's ESM build);
 * prints one JSON report and exits 1 on the first difference.
 */

const POOL: unknown[] = [
  undefined,
  null,
  '',
  'default',
  'text',
  'image',
  'en',
  'a',
  'x'.repeat(300),
  'https://example.com/hook',
  'checks',
  '2026-01-01T00:00:00Z',
  0,
  1,
  5,
  0.5,
  -1,
  1e9,
  true,
  false,
  {},
  { userId: 'u1' },
  { toString: 'x' },
  { a: { b: [1, { valueOf: 2 }] } },
  [],
  ['a'],
  ['checks', 'admin'],
  [{}],
];

/** Values the DTOs' properties of that name accept. */
const GOOD: Record<string, unknown> = {
  content: 'hello there',
  policyId: 'default',
  contentType: 'text',
  language: 'en',
  metadata: { userId: 'u1' },
  requestId: 'r-1',
  name: 'a name',
  scopes: ['checks'],
  url: 'https://example.com/hook',
  events: ['decision.created'],
};

type Outcome = { value: Record<string, unknown>; class: string } | { error: Record<string, unknown> };

async function outcome(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    const value = (await run()) as object;
    return { value: { ...value }, class: value.constructor.name };
  } catch (err) {
    return { error: { ...(err as object), message: (err as Error).message, name: (err as Error).name } };
  }
}

function* bodies(props: string[], random: () => number): Generator<Record<string, unknown>> {
  const build = (choose: (p: string) => unknown) => {
    const body: Record<string, unknown> = {};
    for (const p of props) {
      const v = choose(p);
      if (v !== undefined) body[p] = v;
    }
    return body;
  };
  const good = (p: string) => GOOD[p];
  yield build(good);
  for (const p of props) for (const v of POOL) yield build((q) => (q === p ? v : good(q)));
  for (let i = 0; i < 300; i++) yield build(() => POOL[Math.floor(random() * POOL.length)]);
  yield { ...build(good), extra: 'kept' };
  yield { ...build(good), toString: 'shadows a method' };
}

async function main(): Promise<void> {
  if (!AppModule) throw new Error('AppModule did not load');
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<Function, { propertyName: string }[]> };
  const dtos = [...storage.validationMetadatas.keys()].filter((t) => typeof t === 'function' && t.name !== 'AppConfig') as (new () => object)[];
  const fast = validationPipe();
  if (!(fast instanceof CompiledValidationPipe)) throw new Error('validationPipe() does not build the CompiledValidationPipe');
  // The same options without the fast path: the parent class's own transform.
  const full = (v: unknown, m: ArgumentMetadata) => ValidationPipe.prototype.transform.call(fast, v, m) as Promise<unknown>;
  const report: Record<string, { compiled: boolean; bodies: number; accepted: number; fastAccepted: number }> = {};
  let seed = 20261127;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (const dto of dtos) {
    const props = [...new Set(storage.validationMetadatas.get(dto)!.map((m) => m.propertyName))];
    const compiled = compileDto(dto);
    const row = { compiled: compiled !== null, bodies: 0, accepted: 0, fastAccepted: 0 };
    for (const body of bodies(props, random)) {
      for (const type of ['body', 'query'] as const) {
        const meta: ArgumentMetadata = { type, metatype: dto };
        const want = await outcome(() => full(structuredClone(body), meta));
        const got = await outcome(() => fast.transform(structuredClone(body), meta));
        if (!isDeepStrictEqual(got, want)) {
          console.log(JSON.stringify({ dto: dto.name, type, body, want, got }));
          process.exit(1);
        }
        row.bodies++;
        if ('value' in want) row.accepted++;
        if (compiled?.accept(structuredClone(body)) !== undefined) row.fastAccepted++;
      }
    }
    report[dto.name] = row;
  }
  console.log(JSON.stringify(report));
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
