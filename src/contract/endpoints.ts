import * as z from 'zod/mini';
import { catalogSchema } from './catalog.js';
import {
  chatCreateSchema,
  chatDeletedSchema,
  chatListQuerySchema,
  chatSchema,
  chatUpdateSchema,
} from './chat.js';
import { intId, uuid } from './checks.js';
import {
  ANSWERS,
  actionResultSchema,
  cancelResultSchema,
  cancelSchema,
  type InteractionKind,
} from './interactions.js';
import { lazy } from './lazy.js';
import { pageQuerySchema } from './page.js';
import type { Scope } from './scopes.js';
import {
  skillCreateSchema,
  skillDeletedSchema,
  skillListQuerySchema,
  skillSchema,
  skillUpdateSchema,
} from './skill.js';
import { messageSchema, turnSchema, turnSendSchema, turnStreamBodySchema } from './turn.js';

/** What an operation is, for the retry policy (`http/policy.ts`). */
export type OperationKind =
  /** A call that arriving twice leaves as once: a read, or an update that sets fields (skill and chat updates). */
  | 'repeatable'
  /** A write that may not be repeated once it arrived: create, toggle, delete. */
  | 'write'
  /** A turn sent under its `Idempotency-Key`: the synchronous send, and a stream's open and re-open. */
  | 'turn'
  /** An interaction answer (4.5): an interaction resolves once (3.3). */
  | 'answer'
  /** Cancelling a turn (4.6): idempotent. */
  | 'cancel';

/** An HTTP method the contract uses. */
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * The ids a path template holds, each with the check it passes before it goes into the path: one per
 * `{name}` placeholder of the table's paths, and no other (`satisfies`: a path with a new placeholder does not
 * compile until its check is here).
 */
export const PATH_PARAMS = {
  get chat_id() {
    return uuid();
  },
  get skill_id() {
    return intId();
  },
} as const satisfies Record<Placeholders<(typeof ENDPOINTS)[EndpointName]['path']>, z.ZodMiniType>;

/** A path parameter's name. */
export type PathParamName = keyof typeof PATH_PARAMS;

/**
 * One endpoint of section 4: its method, its path below `/api/v1/` with `{id}` placeholders, the scopes it
 * requires (5), the schemas of its query or body and of its answer's `data` (the array of a page for a list),
 * its success statuses, its retry kind, and whether it takes an `Idempotency-Key`.
 */
export interface Endpoint {
  /** The HTTP method. */
  readonly method: Method;
  /** The path below `/api/v1/`, ids as `{chat_id}` or `{skill_id}`. */
  readonly path: string;
  /** The scopes the credential must hold (section 4's tables); none where the contract names none. */
  readonly scopes: readonly Scope[];
  /** The section of the spec that defines it. */
  readonly section: string;
  /** A list's query (`page`, `size` and its filters); lists only. */
  readonly query?: z.ZodMiniType;
  /** The body's schema, checked before anything is sent. */
  readonly body?: z.ZodMiniType;
  /** The schema of the answer's `data`; absent for the stream, whose answer is events (section 6). */
  readonly data?: z.ZodMiniType;
  /** Paginated: `data` is one page, `meta.page` says where it is. */
  readonly list?: true;
  /** The answer is `text/event-stream` (4.4). */
  readonly stream?: true;
  /** The success statuses; two where the contract does not say which. */
  readonly success: readonly number[];
  /** How a failed attempt is met (`http/policy.ts`). */
  readonly kind: OperationKind;
  /** Requires an `Idempotency-Key` header (4.3, 4.4). */
  readonly idempotencyKey?: true;
  /** The interaction kind this endpoint answers (4.5, 6). */
  readonly answers?: InteractionKind;
  /** Not part of the contract: 4.1 names `GET /users` but shows neither its shape nor its scope. */
  readonly outsideContract?: true;
}

const answer = <K extends InteractionKind>(kind: K) =>
  ({
    method: 'POST',
    path: `chats/{chat_id}/actions/${ANSWERS[kind].endpoint}`,
    scopes: ['chat:write'],
    section: '4.5',
    get body(): (typeof ANSWERS)[K]['schema'] {
      return ANSWERS[kind].schema;
    },
    get data() {
      return actionResultSchema();
    },
    success: [200],
    kind: 'answer',
    answers: kind,
  }) as const;

const skillList = lazy(() => z.array(skillSchema()));
const userList = lazy(() => z.array(z.looseObject({ id: intId() })));
const chatList = lazy(() => z.array(chatSchema()));
const messageList = lazy(() => z.array(messageSchema()));

/**
 * Every endpoint of the contract, the one table of them, named `namespace.method` as the client calls it:
 * the client's resource methods, the mock's routes, the OpenAPI document and the conformance kit's coverage
 * all read it. An endpoint added here fails to compile until `ENDPOINT_DOCS` describes its failures, and
 * fails a test until the client and the mock serve it.
 */
export const ENDPOINTS = {
  'skills.list': {
    method: 'GET',
    path: 'skills',
    scopes: ['skills:read'],
    section: '4.1',
    get query() {
      return skillListQuerySchema();
    },
    get data() {
      return skillList();
    },
    list: true,
    success: [200],
    kind: 'repeatable',
  },
  'skills.create': {
    method: 'POST',
    path: 'skills',
    scopes: ['skills:write'],
    section: '4.1',
    get body() {
      return skillCreateSchema();
    },
    get data() {
      return skillSchema();
    },
    success: [201],
    kind: 'write',
  },
  'skills.get': {
    method: 'GET',
    path: 'skills/{skill_id}',
    scopes: ['skills:read'],
    section: '4.1',
    get data() {
      return skillSchema();
    },
    success: [200],
    kind: 'repeatable',
  },
  'skills.update': {
    method: 'PATCH',
    path: 'skills/{skill_id}',
    scopes: ['skills:write'],
    section: '4.1',
    get body() {
      return skillUpdateSchema();
    },
    get data() {
      return skillSchema();
    },
    success: [200],
    kind: 'repeatable',
  },
  'skills.toggle': {
    method: 'PATCH',
    path: 'skills/{skill_id}/toggle',
    scopes: ['skills:write'],
    section: '4.1',
    get data() {
      return skillSchema();
    },
    success: [200],
    kind: 'write',
  },
  'skills.delete': {
    method: 'DELETE',
    path: 'skills/{skill_id}',
    scopes: ['skills:write'],
    section: '4.1',
    get data() {
      return skillDeletedSchema();
    },
    success: [200],
    kind: 'write',
  },
  'users.list': {
    method: 'GET',
    path: 'users',
    scopes: [],
    section: '4.1',
    get query() {
      return pageQuerySchema();
    },
    get data() {
      return userList();
    },
    list: true,
    success: [200],
    kind: 'repeatable',
    outsideContract: true,
  },
  'chats.list': {
    method: 'GET',
    path: 'chats',
    scopes: ['chat:read'],
    section: '4.2',
    get query() {
      return chatListQuerySchema();
    },
    get data() {
      return chatList();
    },
    list: true,
    success: [200],
    kind: 'repeatable',
  },
  'chats.create': {
    method: 'POST',
    path: 'chats',
    scopes: ['chat:write'],
    section: '4.2',
    get body() {
      return chatCreateSchema();
    },
    get data() {
      return chatSchema();
    },
    // 4.2 does not say which success status creation answers.
    success: [200, 201],
    kind: 'write',
  },
  'chats.get': {
    method: 'GET',
    path: 'chats/{chat_id}',
    scopes: ['chat:read'],
    section: '4.2',
    get data() {
      return chatSchema();
    },
    success: [200],
    kind: 'repeatable',
  },
  'chats.update': {
    method: 'PATCH',
    path: 'chats/{chat_id}',
    scopes: ['chat:write'],
    section: '4.2',
    get body() {
      return chatUpdateSchema();
    },
    get data() {
      return chatSchema();
    },
    success: [200],
    kind: 'repeatable',
  },
  'chats.delete': {
    method: 'DELETE',
    path: 'chats/{chat_id}',
    scopes: ['chat:write'],
    section: '4.2',
    get data() {
      return chatDeletedSchema();
    },
    success: [200],
    kind: 'write',
  },
  'chats.messages': {
    method: 'GET',
    path: 'chats/{chat_id}/messages',
    scopes: ['chat:read'],
    section: '4.2',
    get query() {
      return pageQuerySchema();
    },
    get data() {
      return messageList();
    },
    list: true,
    success: [200],
    kind: 'repeatable',
  },
  'chats.catalog': {
    method: 'GET',
    path: 'chat/catalog',
    scopes: ['chat:read'],
    section: '4.2',
    get data() {
      return catalogSchema();
    },
    success: [200],
    kind: 'repeatable',
  },
  'turns.send': {
    method: 'POST',
    path: 'chats/{chat_id}/messages',
    scopes: ['chat:write'],
    section: '4.3',
    get body() {
      return turnSendSchema();
    },
    get data() {
      return turnSchema();
    },
    success: [200],
    kind: 'turn',
    idempotencyKey: true,
  },
  'turns.stream': {
    method: 'POST',
    path: 'chats/{chat_id}/messages/stream',
    scopes: ['chat:write'],
    section: '4.4',
    get body() {
      return turnStreamBodySchema();
    },
    stream: true,
    success: [200],
    kind: 'turn',
    idempotencyKey: true,
  },
  'turns.cancel': {
    method: 'POST',
    path: 'chats/{chat_id}/actions/cancel',
    scopes: ['chat:write'],
    section: '4.6',
    get body() {
      return cancelSchema();
    },
    get data() {
      return cancelResultSchema();
    },
    success: [200],
    kind: 'cancel',
  },
  'actions.approveTool': answer('tool_approval'),
  'actions.respondPlan': answer('plan_approval'),
  'actions.respondElicitation': answer('elicitation'),
  'actions.cancelAuth': answer('auth_required'),
} as const satisfies Record<string, Endpoint>;

/** The name of an endpoint: `namespace.method`, as the client calls it. */
export type EndpointName = keyof typeof ENDPOINTS;

/** Every endpoint's name, in the table's order. */
export const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as readonly EndpointName[];

/** The endpoint answering each interaction kind (4.5, 6), derived from the table. */
export const ANSWER_ENDPOINTS = {
  tool_approval: 'actions.approveTool',
  plan_approval: 'actions.respondPlan',
  elicitation: 'actions.respondElicitation',
  auth_required: 'actions.cancelAuth',
} as const satisfies {
  [K in InteractionKind]: {
    [N in EndpointName]: (typeof ENDPOINTS)[N] extends { answers: K } ? N : never;
  }[EndpointName];
};

/** The `{name}` placeholders of a path template. */
type Placeholders<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | Placeholders<Rest>
  : never;

/** The ids a path template takes, typed by their checks: `{ chat_id: string }`, `{ skill_id: number }`. */
export type PathParams<P extends string> = {
  readonly [N in Placeholders<P>]: N extends PathParamName ? z.input<(typeof PATH_PARAMS)[N]> : never;
};

/** The schema of an endpoint's `data` (one page's array for a list). */
export type DataOf<E extends Endpoint> = E extends { data: z.ZodMiniType<infer T> } ? T : never;

/** Where every path of the contract starts (9). */
export const API_PREFIX = '/api/v1';

/**
 * The source of a RegExp matching the request paths of a path template, unanchored:
 * `chats/{chat_id}/messages` -> `/api/v1/chats/[^/]+/messages`.
 */
export function pathPattern(path: string): string {
  return `${API_PREFIX}/${path}`.replace(/\{\w+\}/g, '[^/]+');
}
