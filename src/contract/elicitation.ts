import type { Schema } from '@cfworker/json-schema';
import type { PlainIssue } from './issues.js';

/**
 * The JSON Schema validator is loaded by the first check, not on import: most apps never answer an
 * elicitation, and it would be a quarter of a browser bundle that streams turns.
 */
let validator: Promise<typeof import('@cfworker/json-schema')> | undefined;
let guard: Promise<typeof import('./schema-guard.js')> | undefined;

const PRIMITIVE = new Set(['string', 'number', 'boolean']);

/**
 * Problems of an elicitation answer (4.5): `content` must be a flat object (values are strings, numbers,
 * booleans or null) that satisfies `requested_schema`. Field names are `content.<property>`.
 */
export async function elicitationIssues(
  requestedSchema: Record<string, unknown>,
  content: unknown,
): Promise<PlainIssue[]> {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    return [{ field: 'content', message: 'must be an object' }];
  }
  const issues: PlainIssue[] = [];
  for (const [key, value] of Object.entries(content)) {
    if (value !== null && !PRIMITIVE.has(typeof value)) {
      issues.push({
        field: `content.${key}`,
        message: 'must be a string, number, boolean or null (content is flat)',
      });
    }
  }
  // A hostile schema is refused before it reaches the validator (it would recurse or backtrack unbounded);
  // the guard, like the validator, is loaded by the first check.
  guard ??= import('./schema-guard.js');
  const hazards = (await guard).schemaHazards(requestedSchema);
  if (hazards.length > 0) return [...issues, ...hazards];
  validator ??= import('@cfworker/json-schema');
  const { Validator } = await validator;
  const result = new Validator(requestedSchema as Schema, '2020-12', false).validate(content);
  for (const error of result.errors) {
    // `properties` only says that some property failed; the failing property has its own entry.
    if (error.keyword === 'properties') continue;
    const required = error.keyword === 'required' ? /"([^"]+)"/.exec(error.error)?.[1] : undefined;
    const path = required ?? error.instanceLocation.replace(/^#\/?/, '').replaceAll('/', '.');
    issues.push({
      field: path ? `content.${path}` : 'content',
      message: required ? 'is required' : error.error,
    });
  }
  return issues;
}
