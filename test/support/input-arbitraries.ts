import fc from 'fast-check';

/**
 * Values for request fields: mostly valid, often at a limit or one past it, sometimes of the wrong type.
 * Characters are code points (src/contract/text.ts `charCount`), so strings at a limit mix in astral
 * characters, combining marks and lone surrogates, each one character.
 */

/** Single code points of every width: ASCII, 2-byte, 3-byte, astral, a combining mark, a lone surrogate. */
const FILLERS = ['a', 'é', '€', '😀', '\u0301', '\ud800', '\u0000', '"'] as const;

/** A string of exactly `n` code points, of mixed widths. */
export function exactChars(n: number): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...FILLERS), fc.constantFrom(...FILLERS), fc.nat({ max: n }))
    .map(([a, b, split]) => a.repeat(split) + b.repeat(n - split));
}

/** A value of any JSON-ish type but `not`. */
export function wrongType(not: 'string' | 'number' | 'boolean' | 'array' | 'object'): fc.Arbitrary<unknown> {
  const all: Record<typeof not | 'null', fc.Arbitrary<unknown>> = {
    string: fc.string({ maxLength: 4 }),
    number: fc.oneof(fc.integer(), fc.double()),
    boolean: fc.boolean(),
    array: fc.array(fc.integer(), { maxLength: 2 }),
    object: fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
    null: fc.constant(null),
  };
  return fc.oneof(...Object.entries(all).flatMap(([type, arb]) => (type === not ? [] : [arb])));
}

/** A string field, bounded by `limit` characters when it has one. */
export function str(limit?: number): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
    ...(limit === undefined
      ? []
      : [
          { weight: 1, arbitrary: exactChars(limit) },
          { weight: 1, arbitrary: exactChars(limit + 1) },
        ]),
    { weight: 1, arbitrary: wrongType('string') },
  );
}

/** An integer field (ids): small valid ones, edge numbers, wrong types. */
export function int(valid: fc.Arbitrary<number> = fc.integer({ min: 1, max: 30 })): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 10, arbitrary: valid },
    { weight: 2, arbitrary: fc.constantFrom(0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, -0) },
    { weight: 1, arbitrary: wrongType('number') },
  );
}

/**
 * An integer of a query string. No text: `"2"` is a type error for the typed client but reads as 2 on
 * the wire, so only values whose text the service also refuses are wrong here.
 */
export function queryInt(valid: fc.Arbitrary<number>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 10, arbitrary: valid },
    {
      weight: 2,
      arbitrary: fc.constantFrom(0, -1, 1.5, 201, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, -0),
    },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false, {}) },
  );
}

/** An integer list field. */
export function intList(
  valid: fc.Arbitrary<number> = fc.integer({ min: 1, max: 30 }),
): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.array(valid, { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.array(int(valid), { minLength: 1, maxLength: 3 }) },
    { weight: 1, arbitrary: wrongType('array') },
  );
}

/** An enum field. */
export function oneOf(values: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...values) },
    { weight: 1, arbitrary: fc.constantFrom(...values.map((v) => v.toUpperCase()), '', 'plan') },
    { weight: 1, arbitrary: wrongType('string') },
  );
}

/** A boolean field. */
export function bool(): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 10, arbitrary: fc.boolean() }, { weight: 1, arbitrary: wrongType('boolean') });
}

/** `{ k: "<filler>…" }` serializing to exactly `bytes` bytes of UTF-8 JSON (`{"k":""}` is 8). */
export function metadataOfBytes(bytes: number, filler: 'a' | 'é' | '€' | '😀' = 'a'): Record<string, string> {
  const width = new TextEncoder().encode(filler).length;
  const room = bytes - 8;
  const value = filler.repeat(Math.floor(room / width)) + 'a'.repeat(room % width);
  return { k: value };
}

/** A metadata field: small objects, at 2048 bytes and one past, non-objects, and values JSON cannot hold. */
export function metadata(): fc.Arbitrary<unknown> {
  return fc.oneof(
    {
      weight: 10,
      arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(2048, 2049),
          fc.constantFrom('a' as const, 'é' as const, '€' as const, '😀' as const),
        )
        .map(([bytes, filler]) => metadataOfBytes(bytes, filler)),
    },
    { weight: 1, arbitrary: fc.oneof(wrongType('object'), fc.constant([])) },
    {
      weight: 1,
      arbitrary: fc.constantFrom({ big: 10n }, { at: new Date(0) }, { gone: undefined }, { nan: Number.NaN }),
    },
  );
}

/** A chat id path parameter: mostly UUIDs, sometimes not. */
export function chatIdArb(known: () => string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(0).map(() => known()) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.uuid().map((id) => id.toUpperCase()) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', 'not-a-uuid', '../skills', '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5', ' '),
    },
  );
}
