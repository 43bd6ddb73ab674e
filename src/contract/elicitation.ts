import type { Schema, Validator } from '@cfworker/json-schema';
import type { PlainIssue } from './issues.js';
import { schemaHazards } from './schema-guard.js';

/**
 * The rules of an elicitation answer (4.5), written once: the client checks them before sending and the
 * mock answers 422 with them, so both name the same field (`content.<property>`) with the same text.
 */

/** What a flat `content` field must be; the message both sides give otherwise. */
export const FLAT_VALUE_MESSAGE = 'must be a string, number, boolean or null (content is flat)';

/** Whether `value` may be a field of a flat object: a string, number, boolean or null. */
export function isFlatValue(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** The fields of `content` that break flatness, each as `content.<key>`. */
function flatIssues(content: Record<string, unknown>): PlainIssue[] {
  return Object.entries(content)
    .filter(([, value]) => !isFlatValue(value))
    .map(([key]) => ({ field: `content.${key}`, message: FLAT_VALUE_MESSAGE }));
}

/** The JSON Schema validator class (`@cfworker/json-schema`), passed in so that each side loads it its way. */
export type ValidatorClass = typeof Validator;

/**
 * Checks elicitation `content` (an object, already flat) against `requested_schema`: the problems, each
 * naming its field `content.<property>`; none when it satisfies the schema.
 */
export type ElicitationValidator = (
  requestedSchema: Record<string, unknown>,
  content: Record<string, unknown>,
) => PlainIssue[] | Promise<PlainIssue[]>;

/**
 * Problems of `content` as an elicitation answer, synchronously, with the validator given: not an object,
 * a field that is not flat, then what `requested_schema` refuses; one issue per field, the first found.
 */
export function elicitationContentIssues(
  validatorClass: ValidatorClass,
  requestedSchema: Record<string, unknown>,
  content: unknown,
): PlainIssue[] {
  const shape = shapeIssues(content);
  if (shape === undefined) return [{ field: 'content', message: 'must be an object' }];
  return merged(shape, schemaIssues(validatorClass, requestedSchema, content as Record<string, unknown>));
}

/** What `requested_schema` refuses in `content`; a hostile schema is refused itself. */
function schemaIssues(
  validatorClass: ValidatorClass,
  requestedSchema: Record<string, unknown>,
  content: Record<string, unknown>,
): PlainIssue[] {
  // A hostile schema is refused before it reaches the validator (it would recurse or backtrack unbounded).
  const hazards = schemaHazards(requestedSchema);
  if (hazards.length > 0) return hazards;
  const result = new validatorClass(requestedSchema as Schema, '2020-12', false).validate(content);
  // `properties` only says that some property failed; the failing property has its own entry.
  const inner = result.errors.filter((error) => error.keyword !== 'properties');
  return (inner.length > 0 ? inner : result.errors).map((error) => ({
    field: fieldOf(error.instanceLocation, error.keyword, error.error),
    message: plainMessage(error.keyword, error.error, () => at(requestedSchema, error.keywordLocation)),
  }));
}

/** The flatness issues of `content`, or `undefined` when it is not an object at all. */
function shapeIssues(content: unknown): PlainIssue[] | undefined {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return undefined;
  return flatIssues(content as Record<string, unknown>);
}

/** `first`, then each issue of `then` whose field has none yet: one issue per field. */
function merged(first: PlainIssue[], then: PlainIssue[]): PlainIssue[] {
  const issues = new Map(first.map((issue) => [issue.field, issue]));
  for (const issue of then) if (!issues.has(issue.field)) issues.set(issue.field, issue);
  return [...issues.values()];
}

/** The validator module, loaded by the first check of `jsonSchemaValidator`, not on import. */
let validator: Promise<typeof import('@cfworker/json-schema')> | undefined;

/**
 * Checks `requested_schema` with a full JSON Schema (2020-12) validator, `@cfworker/json-schema`, loaded by
 * its first check. The Node, Deno and Bun entry uses it by default; a bundle (browser, edge worker) adds it
 * with `new Client({ elicitationValidator: jsonSchemaValidator })`, 6.6 KB gzipped in a chunk of its own.
 */
export const jsonSchemaValidator: ElicitationValidator = async (requestedSchema, content) => {
  validator ??= import('@cfworker/json-schema');
  const { Validator } = await validator;
  return schemaIssues(Validator, requestedSchema, content);
};

/** The validator a client uses when its options name none: the entry's (`jsonSchemaValidator` in Node). */
let fallback: ElicitationValidator | undefined;

/** @internal Sets the entry's default validator; only the Node entry calls it. */
export function useElicitationValidator(validate: ElicitationValidator): void {
  fallback = validate;
}

/**
 * Problems of an elicitation answer (4.5): `content` must be a flat object (values are strings, numbers,
 * booleans or null) that satisfies `requested_schema`. Field names are `content.<property>`. The schema is
 * checked by `validate` (default: the entry's, `jsonSchemaValidator` in Node, Deno and Bun); without one,
 * only the shape is, and the service checks the schema (its 422 names the same fields).
 */
export async function elicitationIssues(
  requestedSchema: Record<string, unknown>,
  content: unknown,
  validate: ElicitationValidator | undefined = fallback,
): Promise<PlainIssue[]> {
  const shape = shapeIssues(content);
  if (shape === undefined) return [{ field: 'content', message: 'must be an object' }];
  if (!validate) return shape;
  return merged(shape, await validate(requestedSchema, content as Record<string, unknown>));
}

// `#/email` -> `content.email`; a missing required property is reported at the object, so name it.
function fieldOf(location: string, keyword: string, message: string): string {
  const path = location.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodePointer);
  if (keyword === 'required') {
    const missing = /"([^"]+)"/.exec(message)?.[1];
    if (missing !== undefined) path.push(missing);
  }
  return ['content', ...path].join('.');
}

/**
 * The validator's message said as what is expected ("must be at most 5"), from the numbers it quotes or the
 * schema's own value (a pattern); a keyword not listed keeps the validator's words.
 */
function plainMessage(keyword: string, message: string, schemaValue: () => unknown): string {
  const last = /(\S+)\.$/.exec(message)?.[1];
  const inParens = /[<>] (\d+)\)/.exec(message)?.[1];
  const expected = /Expected "([^"]+)"/.exec(message)?.[1];
  const listed = /any of (\[.*\])\.$/.exec(message)?.[1];
  const constant = /does not match (.*)\.$/.exec(message)?.[1];
  const format = /format "([^"]+)"/.exec(message)?.[1];
  const pattern = keyword === 'pattern' ? schemaValue() : undefined;
  const phrases: Record<string, string | false | undefined> = {
    required: 'is required',
    type: expected && `must be of type ${expected}`,
    minimum: last && `must be at least ${last}`,
    maximum: last && `must be at most ${last}`,
    exclusiveMinimum: last && `must be greater than ${last}`,
    exclusiveMaximum: last && `must be less than ${last}`,
    multipleOf: last && `must be a multiple of ${last}`,
    minLength: inParens && `must be at least ${inParens} characters`,
    maxLength: inParens && `must be at most ${inParens} characters`,
    // The validator quotes the schema's values as JSON.
    enum:
      listed &&
      `must be one of ${(JSON.parse(listed) as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
    const: constant && `must be ${constant}`,
    format: format && `must be in the format "${format}"`,
    pattern: typeof pattern === 'string' && `must match the pattern /${pattern}/`,
  };
  return phrases[keyword] || message;
}

/** The value at a JSON pointer (`#/properties/s/pattern`) of `schema`. */
function at(schema: unknown, pointer: string): unknown {
  const path = pointer.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodePointer);
  return path.reduce<unknown>(
    (node, key) =>
      typeof node === 'object' && node !== null && Object.hasOwn(node, key)
        ? (node as Record<string, unknown>)[key]
        : undefined,
    schema,
  );
}

function decodePointer(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}
