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
export function flatIssues(content: Record<string, unknown>): PlainIssue[] {
  return Object.entries(content)
    .filter(([, value]) => !isFlatValue(value))
    .map(([key]) => ({ field: `content.${key}`, message: FLAT_VALUE_MESSAGE }));
}

/** The JSON Schema validator class (`@cfworker/json-schema`), passed in so that each side loads it its way. */
export type ValidatorClass = typeof Validator;

/**
 * Problems of `content` as an elicitation answer, synchronously, with the validator given: not an object,
 * a field that is not flat, then what `requested_schema` refuses; one issue per field, the first found.
 */
export function elicitationContentIssues(
  validatorClass: ValidatorClass,
  requestedSchema: Record<string, unknown>,
  content: unknown,
): PlainIssue[] {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    return [{ field: 'content', message: 'must be an object' }];
  }
  const issues = new Map<string, PlainIssue>();
  const add = (issue: PlainIssue) => {
    if (!issues.has(issue.field)) issues.set(issue.field, issue);
  };
  flatIssues(content as Record<string, unknown>).forEach(add);
  // A hostile schema is refused before it reaches the validator (it would recurse or backtrack unbounded).
  const hazards = schemaHazards(requestedSchema);
  if (hazards.length > 0) return [...issues.values(), ...hazards];
  const result = new validatorClass(requestedSchema as Schema, '2020-12', false).validate(content);
  // `properties` only says that some property failed; the failing property has its own entry.
  const inner = result.errors.filter((error) => error.keyword !== 'properties');
  for (const error of inner.length > 0 ? inner : result.errors) {
    add({
      field: fieldOf(error.instanceLocation, error.keyword, error.error),
      message: plainMessage(error.keyword, error.error),
    });
  }
  return [...issues.values()];
}

/**
 * The JSON Schema validator is loaded by the first check, not on import: most apps never answer an
 * elicitation, and it would be a quarter of a browser bundle that streams turns.
 */
let validator: Promise<typeof import('@cfworker/json-schema')> | undefined;

/**
 * Problems of an elicitation answer (4.5): `content` must be a flat object (values are strings, numbers,
 * booleans or null) that satisfies `requested_schema`. Field names are `content.<property>`.
 */
export async function elicitationIssues(
  requestedSchema: Record<string, unknown>,
  content: unknown,
): Promise<PlainIssue[]> {
  validator ??= import('@cfworker/json-schema');
  const { Validator } = await validator;
  return elicitationContentIssues(Validator, requestedSchema, content);
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

function plainMessage(keyword: string, message: string): string {
  if (keyword === 'required') return 'is required';
  const expected = /Expected "([^"]+)"/.exec(message)?.[1];
  if (keyword === 'type' && expected) return `must be of type ${expected}`;
  return message;
}

function decodePointer(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}
