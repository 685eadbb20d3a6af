import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { Extends, Field, inline, Named, OptionalField, answerNames } from './answer-fields';
import { arr, int, nullable, ref, str } from './schema-builders';

class Inner {
  @Field(int('n')) n!: number;
  @OptionalField(str()) note?: string;
}

@Named('a base answer')
class SpecBase {
  @Field(str()) id!: string;
}

@Named()
@Extends(SpecBase)
class SpecDerived extends SpecBase {
  @Field(nullable(ref(SpecBase))) parent!: SpecBase | null;
  @Field(arr(inline(Inner, 'inner things'))) inner!: Inner[];
  @OptionalField(inline(Inner)) one?: Inner;
}

const schemas = () => validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/' }) as Record<string, unknown>;

/** The answer classes' decorators give the schemas the document serves (openapi.ts). */
describe('answer fields', () => {
  it('registers the named classes only', () => {
    expect([...answerNames()]).toEqual(expect.arrayContaining(['SpecBase', 'SpecDerived']));
    expect(answerNames().has('Inner')).toBe(false);
  });

  it('gives each field the schema written beside it, required unless optional', () => {
    expect(schemas().SpecBase).toEqual({ type: 'object', description: 'a base answer', required: ['id'], properties: { id: { type: 'string' } } });
  });

  it('writes an inline class in place, and a class that extends an answer as allOf it and its own fields', () => {
    const innerSchema = { type: 'object', required: ['n'], properties: { n: { type: 'integer', description: 'n' }, note: { type: 'string' } } };
    expect(schemas().SpecDerived).toEqual({
      allOf: [
        { $ref: '#/components/schemas/SpecBase' },
        {
          type: 'object',
          required: ['parent', 'inner'],
          properties: {
            parent: { allOf: [{ $ref: '#/components/schemas/SpecBase' }], nullable: true },
            inner: { type: 'array', items: { ...innerSchema, description: 'inner things' } },
            one: innerSchema,
          },
        },
      ],
    });
  });
});
