import fc from 'fast-check';
import { skill } from './fake-fetch.js';

/**
 * The response shapes of api-v1.md section 2, written out from the spec on their own (not from the SDK's
 * schemas), with a valid example of each: the oracle of the response fuzzer. A value that breaks a shape
 * must be refused by the client; one that keeps it (unknown fields, absent optional ones, a value of an
 * `enum` the spec does not list yet: shapes may grow, section 9) must come through typed as the spec says.
 */
export type Shape =
  | { t: 'int' | 'number' | 'string' | 'bool' | 'uuid' | 'datetime' | 'any' | 'jsonObject' }
  | { t: 'enum'; values: readonly string[] }
  | { t: 'literal'; value: string | boolean }
  | { t: 'nullable' | 'optional'; of: Shape }
  | { t: 'array'; of: Shape }
  | { t: 'object'; fields: Record<string, Shape> };

const int = { t: 'int' } as const;
const string = { t: 'string' } as const;
const bool = { t: 'bool' } as const;
const datetime = { t: 'datetime' } as const;
/** A string field whose values the service may extend: any string is accepted, anything else refused. */
const openEnum = (...values: string[]): Shape => ({ t: 'enum', values });
const nullable = (of: Shape): Shape => ({ t: 'nullable', of });
const optional = (of: Shape): Shape => ({ t: 'optional', of });
const array = (of: Shape): Shape => ({ t: 'array', of });
const object = (fields: Record<string, Shape>): Shape => ({ t: 'object', fields });

/** 2.2 */
export const SKILL = object({
  id: int,
  name: string,
  description: string,
  instructions: string,
  icon: string,
  level: openEnum('personal', 'company', 'workspace'),
  visibility: openEnum('public', 'private', 'shared'),
  workspace_id: nullable(int),
  is_active: bool,
  created_at: datetime,
});

/** 2.3 */
export const CHAT = object({
  id: { t: 'uuid' },
  name: nullable(string),
  is_favorite: bool,
  permission_mode: openEnum('manual', 'auto'),
  model_id: nullable(int),
  created_at: datetime,
  updated_at: datetime,
});

const TOOL_CALL = object({ tool_use_id: string, name: string, server: string, input: { t: 'any' } });

/** 2.4 */
const TURN_FIELDS = {
  id: int,
  chat_id: { t: 'uuid' },
  role: openEnum('assistant'),
  content: string,
  status: openEnum('completed', 'cancelled', 'error', 'pending'),
  usage: nullable(
    object({
      prompt_tokens: int,
      completion_tokens: int,
      total_tokens: int,
      reasoning_tokens: optional(int),
      model: string,
      provider: string,
    }),
  ),
  steps: array(
    object({
      key: string,
      label: string,
      label_code: string,
      status: string,
      timestamp: datetime,
      duration: optional(int),
      tool_calls: optional(array(TOOL_CALL)),
    }),
  ),
  sources: array(object({ workspace_id: int, file_id: int, score: { t: 'number' } })),
  anonymization: nullable({ t: 'jsonObject' }),
  metadata: nullable({ t: 'jsonObject' }),
} satisfies Record<string, Shape>;
export const TURN = object(TURN_FIELDS);
export const MESSAGE = object({ ...TURN_FIELDS, prompt: string, created_at: datetime });

/** 2.5 */
export const CATALOG = object({
  models: array(object({ id: int, name: string, code: string, type: string })),
  permission_modes: array(openEnum('manual', 'auto')),
  libraries: optional(array(object({ id: int, name: string }))),
  skills: optional(array(object({ id: int, name: string }))),
  connectors: optional(array(object({ id: int, name: string, display_name: string }))),
});

/** 4.5, 4.6, 4.1, 4.2 */
export const ACTION_RESULT = object({ action_id: string, state: openEnum('resolved') });
export const CANCEL_RESULT = object({ chat_id: string, cancelled: bool });
export const CHAT_DELETED = object({ id: { t: 'uuid' }, deleted: { t: 'literal', value: true } });
export const SKILL_DELETED = object({ id: int });

/** 2.1 */
export const ENVELOPE = (data: Shape, list = false) =>
  object({
    status: { t: 'literal', value: 'success' },
    message: string,
    message_code: string,
    data: list ? array(data) : data,
    meta: object({
      request_id: string,
      page: list ? int : optional(int),
      size: list ? int : optional(int),
      total: list ? int : optional(int),
    }),
  });

const T = '2026-11-22T10:00:00Z';
const CHAT_ID = '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

/** Valid examples, every array holding at least one item so that items can be broken too. */
export const EXAMPLES = {
  skill: skill({ created_at: T }),
  chat: {
    id: CHAT_ID,
    name: 'Planning',
    is_favorite: false,
    permission_mode: 'manual',
    model_id: 1,
    created_at: T,
    updated_at: T,
  },
  turn: {
    id: 7,
    chat_id: CHAT_ID,
    role: 'assistant',
    content: 'Hello',
    status: 'completed',
    usage: {
      prompt_tokens: 1,
      completion_tokens: 1,
      total_tokens: 2,
      reasoning_tokens: 0,
      model: 'm',
      provider: 'p',
    },
    steps: [
      {
        key: 'tool',
        label: 'Running search',
        label_code: 'tool_call',
        status: 'completed',
        timestamp: T,
        duration: 3,
        tool_calls: [{ tool_use_id: 'toolu_1', name: 'search', server: 'github', input: { q: 'x' } }],
      },
    ],
    sources: [{ workspace_id: 1, file_id: 11, score: 0.95 }],
    anonymization: null,
    metadata: { ticket: 'OPS-42' },
  },
  catalog: {
    models: [{ id: 1, name: 'Mock Large', code: 'mock-large', type: 'COMPLETION' }],
    permission_modes: ['manual', 'auto'],
    libraries: [{ id: 1, name: 'Handbook' }],
    skills: [{ id: 1, name: 'Tone' }],
    connectors: [{ id: 1, name: 'github', display_name: 'GitHub' }],
  },
  actionResult: { action_id: 'act_1', state: 'resolved' },
  cancelResult: { chat_id: CHAT_ID, cancelled: true },
  chatDeleted: { id: CHAT_ID, deleted: true },
  skillDeleted: { id: 1 },
};

export const MESSAGE_EXAMPLE = { ...EXAMPLES.turn, prompt: 'Hi', created_at: T };

/** Values that break `shape` (and survive JSON, since responses are JSON text). */
export function wrongFor(shape: Shape): unknown[] {
  switch (shape.t) {
    case 'int':
      return [1.5, '1', null, true, [], {}];
    case 'number':
      return ['1', null, true, [], {}];
    case 'string':
      return [1, null, true, [], {}];
    case 'bool':
      return ['true', 1, 0, null, []];
    case 'uuid':
      return ['not-a-uuid', '', '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5', 1, null];
    case 'datetime':
      return ['yesterday', '2026-13-01T00:00:00Z', '2026-11-22', 1_700_000_000, null];
    case 'enum':
      return [1, null, true, []];
    case 'literal':
      return [typeof shape.value === 'string' ? 'other' : false, null, 1];
    case 'nullable':
      return wrongFor(shape.of).filter((value) => value !== null);
    case 'optional':
      return wrongFor(shape.of);
    case 'array':
      return ['x', 1, null, {}];
    case 'object':
      return ['x', 1, null, []];
    case 'jsonObject':
      return ['x', 1, true, []];
    case 'any':
      return [];
  }
}

/** A place in a value: its dotted path and its shape. */
export interface Place {
  path: string[];
  shape: Shape;
  /** Whether deleting it breaks the shape. */
  required: boolean;
}

/** Every place of `value` that `shape` constrains, depth first. */
export function places(shape: Shape, value: unknown, path: string[] = []): Place[] {
  const out: Place[] = [];
  const inner = shape.t === 'nullable' || shape.t === 'optional' ? shape.of : shape;
  if (inner.t === 'object' && value !== null && typeof value === 'object') {
    for (const [key, field] of Object.entries(inner.fields)) {
      const child = (value as Record<string, unknown>)[key];
      out.push({ path: [...path, key], shape: field, required: field.t !== 'optional' });
      if (child !== undefined) out.push(...places(field, child, [...path, key]));
    }
  }
  if (inner.t === 'array' && Array.isArray(value) && value.length > 0) {
    out.push({ path: [...path, '0'], shape: inner.of, required: false });
    out.push(...places(inner.of, value[0], [...path, '0']));
  }
  return out;
}

/** `value` with the place at `path` set to `replacement` (or deleted). */
export function setAt(
  value: unknown,
  path: readonly string[],
  replacement: { set: unknown } | { delete: true },
) {
  const copy = structuredClone(value) as Record<string, unknown>;
  let node = copy as Record<string, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path.at(-1)!;
  if ('delete' in replacement) delete node[last];
  else node[last] = replacement.set;
  return copy;
}

/** One way to break a body of `shape`: a place and what to put there. */
export function breakageArb(
  shape: Shape,
  body: unknown,
): fc.Arbitrary<{ path: string[]; change: { set: unknown } | { delete: true } }> {
  const options = places(shape, body).flatMap((place) => [
    ...wrongFor(place.shape).map((set) => ({ path: place.path, change: { set } })),
    ...(place.required ? [{ path: place.path, change: { delete: true as const } }] : []),
  ]);
  return fc.constantFrom(...options);
}

/** The places of `value` that hold a value of an open enum. */
export function enumPlaces(shape: Shape, value: unknown): Place[] {
  return places(shape, value).filter((place) => place.shape.t === 'enum');
}

/** Unknown fields added to every object of a body: allowed (section 9), and kept or ignored. */
export function withExtras(value: unknown, extra: Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((item) => withExtras(item, extra));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[key] = withExtras(child, extra);
  return { ...extra, ...out };
}
