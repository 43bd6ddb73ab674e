import type { FaultRoute, MalformedKind, MockFault } from '../../src/mock/index.js';

/**
 * The fault matrix: every fault the mock can inject (src/mock/http/faults.ts), plus the ones composed from
 * directives, on each path it applies to, with what the caller must get. fault-matrix.test.ts runs every
 * cell through the in-process fetch and the real HTTP server, and checks that RELIABILITY.md publishes
 * exactly this table (`renderMatrix`).
 */

/** How a turn is driven: `turns.send`, `turns.stream`, `turns.run` answering a tool, `stream.cancel()`. */
export type Path = 'sync' | 'stream' | 'answer' | 'cancel';

/** The typed errors a cell may expect. */
export type ErrorName = 'ApiError' | 'TurnError' | 'StreamInterruptedError' | 'TimeoutError';

/** What the caller gets. */
export type Gets =
  | { kind: 'content' }
  | { kind: 'cancelled' }
  | { kind: 'error'; name: ErrorName; status?: number; code?: string };

/** The expected outcome of one cell. */
export interface Expected {
  gets: Gets;
  /** Requests to the faulted endpoint (all with the turn's key): exact, or an inclusive range. */
  attempts: number | readonly [number, number];
  /** How many times the turn ran (`mock.runs(key)`): never more than once. */
  ran: 0 | 1;
  /** Stream: whether a `resumed` event shows a re-opened connection. */
  resumed?: boolean;
  /** The error carries the turn's message id (or, for `chat_busy`, the running turn's). */
  messageId?: boolean;
  /** Answer path: whether the approved tool ran. */
  toolRan?: boolean;
  /** After the error, the same call with the same key reads the stored outcome without running it again. */
  readLater?: boolean;
}

/** One fault and what it does on each path where it applies. */
export interface FaultRow {
  /** The fault, as RELIABILITY.md names it. */
  fault: string;
  /** The sections of api-v1.md that say what must happen. */
  spec: string;
  /** How the test makes it. */
  how: string;
  /** The faults to add, for the route of the path under test. */
  faults?: (route: FaultRoute) => MockFault[];
  /** The turn's content; five short words by default. */
  content?: string;
  /** Stream and turn options of the call. */
  options?: { idleTimeout?: number; timeout?: number; maxResumes?: number };
  /** The chat already runs another turn. */
  busy?: boolean;
  /** The request body is over the mock's 8 MiB read cap (attachments, which the client does not bound). */
  bigBody?: boolean;
  expect: Partial<Record<Path, Expected>>;
}

/** The answer of the default content. */
export const ANSWER = 'word1 word2 word3 word4 word5';
export const WORDS = '[[mock:words n=5]]';

const content = (attempts: Expected['attempts'], extra: Partial<Expected> = {}): Expected => ({
  gets: { kind: 'content' },
  attempts,
  ran: 1,
  ...extra,
});
const apiError = (
  status: number,
  code: string,
  attempts: number,
  ran: 0 | 1,
  extra: Partial<Expected> = {},
) =>
  ({ gets: { kind: 'error', name: 'ApiError', status, code }, attempts, ran, ...extra }) satisfies Expected;
const turnError = (code: string, attempts = 1): Expected => ({
  gets: { kind: 'error', name: 'TurnError', code },
  attempts,
  ran: 1,
  messageId: true,
});
/** A chat id for the data of a fault's failure (7.3: upstream_error names its chat and turn). */
const FAULT_CHAT_ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

const respond =
  (respond: Extract<MockFault, { respond: unknown }>['respond'], times?: number) =>
  (route: FaultRoute): MockFault[] => [{ route, respond, ...(times ? { times } : {}) }];

const tolerated = (kind: MalformedKind): FaultRow => ({
  fault: `damaged SSE: ${kind}`,
  spec: '6, 9',
  how: `malformed: '${kind}'`,
  faults: (route) => [{ route, malformed: kind }],
  expect: { stream: content(1) },
});

export const FAULT_MATRIX: readonly FaultRow[] = [
  {
    fault: 'connection drops before the response (the request was handled)',
    spec: '4.3, 4.4, 4.6',
    how: "drop: 'before-response'",
    faults: (route) => [{ route, drop: 'before-response' }],
    expect: {
      sync: content(2),
      stream: content(2),
      // The resend finds the interaction resolved (409 not_pending); `run` follows the stream.
      answer: content(2, { toolRan: true }),
      cancel: { gets: { kind: 'cancelled' }, attempts: 2, ran: 1 },
    },
  },
  {
    fault: '503 before dispatch, `retry_action: retry`',
    spec: '7, 7.5',
    how: "respond 503 api_v1_service_unavailable, error_details.retry_action 'retry'",
    faults: respond({
      status: 503,
      code: 'api_v1_service_unavailable',
      errorDetails: { retry_action: 'retry' },
    }),
    expect: {
      sync: content(2),
      stream: content(2),
      answer: content(2, { toolRan: true }),
      cancel: { gets: { kind: 'cancelled' }, attempts: 2, ran: 1 },
    },
  },
  {
    fault: '503 after the turn ran, `retry_action: check_status`',
    spec: '7',
    how: "respond 503 api_v1_service_unavailable, retry_action 'check_status', afterRun",
    faults: respond({
      status: 503,
      code: 'api_v1_service_unavailable',
      errorDetails: { retry_action: 'check_status' },
      afterRun: true,
    }),
    expect: {
      sync: apiError(503, 'api_v1_service_unavailable', 1, 1, { readLater: true }),
      stream: apiError(503, 'api_v1_service_unavailable', 1, 1, { readLater: true }),
    },
  },
  {
    fault: '503 `persistence_failed` after the turn ran',
    spec: '7.3',
    how: "respond 503 api_v1_core_unavailable, data.code 'persistence_failed', afterRun",
    faults: respond({
      status: 503,
      code: 'api_v1_core_unavailable',
      data: { code: 'persistence_failed' },
      errorDetails: { retry_action: 'check_status' },
      afterRun: true,
    }),
    expect: { sync: content(2), stream: content(2) },
  },
  {
    fault: '409 `idempotency_outcome_unknown`, nothing ran',
    spec: '7.3',
    how: "respond 409 api_v1_core_unavailable, data.code 'idempotency_outcome_unknown'",
    faults: respond({
      status: 409,
      code: 'api_v1_core_unavailable',
      data: { code: 'idempotency_outcome_unknown' },
    }),
    expect: { sync: content(2), stream: content(2) },
  },
  {
    fault: '409 `idempotency_outcome_unknown` after the turn ran',
    spec: '7.3',
    how: "respond 409 api_v1_core_unavailable, data.code 'idempotency_outcome_unknown', afterRun",
    faults: respond({
      status: 409,
      code: 'api_v1_core_unavailable',
      data: { code: 'idempotency_outcome_unknown' },
      afterRun: true,
    }),
    expect: { sync: content(2), stream: content(2) },
  },
  {
    fault: '502 `upstream_error` before dispatch',
    spec: '7.3',
    how: 'respond 502 upstream_error',
    faults: respond({ status: 502, code: 'upstream_error', data: { chat_id: FAULT_CHAT_ID, message_id: 1 } }),
    expect: {
      sync: apiError(502, 'upstream_error', 1, 0),
      stream: apiError(502, 'upstream_error', 1, 0),
    },
  },
  {
    fault: '500 with a code the SDK does not know',
    spec: '7',
    how: 'respond 500 api_v1_internal_error',
    faults: respond({ status: 500, code: 'api_v1_internal_error' }),
    expect: {
      sync: apiError(500, 'api_v1_internal_error', 1, 0),
      stream: apiError(500, 'api_v1_internal_error', 1, 0),
    },
  },
  {
    fault: 'connection drops, then the key answers 409 `turn_in_progress` twice',
    spec: '4.3, 7.3',
    how: "drop: 'before-response' + inProgress: 2",
    faults: (route) => [
      { route, drop: 'before-response' },
      { route, inProgress: 2 },
    ],
    expect: { sync: content(4), stream: content(4) },
  },
  {
    fault: 'request body over 8 MiB',
    spec: '7',
    how: '1,048,577 attachment ids (413 api_v1_payload_too_large)',
    bigBody: true,
    expect: {
      sync: apiError(413, 'api_v1_payload_too_large', 1, 0),
      stream: apiError(413, 'api_v1_payload_too_large', 1, 0),
    },
  },
  {
    fault: 'the chat already runs a turn',
    spec: '3.4, 7.3, 7.4',
    how: 'a `[[mock:hang]]` turn first (409 api_v1_chat_busy)',
    busy: true,
    expect: {
      sync: apiError(409, 'api_v1_chat_busy', 1, 0, { messageId: true }),
      stream: apiError(409, 'api_v1_chat_busy', 1, 0, { messageId: true }),
    },
  },
  {
    fault: 'slow body: the turn outlasts the timeout / the watchdog',
    spec: '4.3, 6, 8',
    how: '`[[mock:slow ms=250]]`; timeout 200 ms (sync), idleTimeout 1000 ms with 50 ms pings (stream)',
    // The turn (5 x 250 ms) outlasts both; the watchdog's 1 s is 20 pings, which a busy machine still sends.
    content: `[[mock:slow ms=250]] ${WORDS}`,
    options: { timeout: 200, idleTimeout: 1_000 },
    expect: {
      sync: { gets: { kind: 'error', name: 'TimeoutError' }, attempts: 1, ran: 1, readLater: true },
      stream: content(1),
    },
  },
  {
    fault: 'the turn fails: `upstream_error`',
    spec: '6, 7.3',
    how: '`[[mock:error code=upstream_error]]`',
    content: '[[mock:error code=upstream_error]]',
    expect: {
      sync: apiError(502, 'upstream_error', 1, 1, { messageId: true }),
      stream: turnError('upstream_error'),
    },
  },
  {
    fault: 'the turn fails: `turn_timeout`',
    spec: '6, 7.3',
    how: '`[[mock:error code=turn_timeout]]`',
    content: '[[mock:error code=turn_timeout]]',
    expect: {
      sync: apiError(504, 'turn_timeout', 1, 1, { messageId: true }),
      stream: turnError('turn_timeout'),
    },
  },
  {
    fault: 'the turn fails: `persistence_failed`',
    spec: '6, 7.3',
    how: '`[[mock:error code=persistence_failed]]` (every replay of the key says the same)',
    content: '[[mock:error code=persistence_failed]]',
    expect: {
      sync: apiError(503, 'api_v1_core_unavailable', 3, 1),
      // Section 6: check the state with the same key; the stream re-reads it as the sync path does.
      stream: turnError('persistence_failed', 3),
    },
  },
  {
    fault: 'the turn fails: `outcome_unknown`',
    spec: '6, 7.3',
    how: '`[[mock:error code=outcome_unknown]]`',
    content: '[[mock:error code=outcome_unknown]]',
    expect: {
      sync: apiError(503, 'api_v1_core_unavailable', 1, 1),
      stream: turnError('outcome_unknown'),
    },
  },
  {
    fault: 'the turn fails: `idempotency_outcome_unknown`',
    spec: '6, 7.3',
    how: '`[[mock:error code=idempotency_outcome_unknown]]` (the turn completed; only its first delivery says so)',
    content: `[[mock:error code=idempotency_outcome_unknown]] ${WORDS}`,
    expect: {
      sync: content(2),
      // Section 6: repeat with the same key to read the stored outcome, as the sync path does.
      stream: content(2),
    },
  },
  {
    fault: 'the turn asks for an interaction on the synchronous channel',
    spec: '4.3',
    how: '`[[mock:plan_approval]]`',
    content: `[[mock:plan_approval]] ${WORDS}`,
    expect: { sync: apiError(502, 'interaction_in_auto_mode', 1, 1, { messageId: true }) },
  },
  {
    fault: 'stream cut right after `message.start`',
    spec: '4.4',
    how: 'cutAfterEvents: 1',
    faults: (route) => [{ route, cutAfterEvents: 1 }],
    expect: { stream: content(2, { resumed: true }) },
  },
  {
    fault: 'stream cut mid-answer',
    spec: '4.4',
    how: 'cutAfterEvents: 4',
    faults: (route) => [{ route, cutAfterEvents: 4 }],
    expect: { stream: content(2, { resumed: true }) },
  },
  {
    fault: 'stream cut inside the first event',
    spec: '4.4',
    how: 'cutAfterBytes: 10',
    faults: (route) => [{ route, cutAfterBytes: 10 }],
    expect: { stream: content(2, { resumed: true }) },
  },
  {
    fault: 'stream cut inside a later event',
    spec: '4.4',
    how: 'cutAfterBytes: 300',
    faults: (route) => [{ route, cutAfterBytes: 300 }],
    expect: { stream: content(2, { resumed: true }) },
  },
  {
    fault: 'stream stalls: no byte, no ping',
    spec: '4.4, 6',
    how: 'stall: { afterEvents: 2 }; idleTimeout 1000 ms',
    faults: (route) => [{ route, stall: { afterEvents: 2 } }],
    // 20 pings' worth: the resumed stream is not broken again by a busy machine's pause.
    options: { idleTimeout: 1_000 },
    expect: { stream: content(2, { resumed: true }) },
  },
  {
    fault: 'stream cut while the turn still runs',
    spec: '4.4, 7.3',
    how: 'cutAfterEvents: 3 on a `[[mock:slow ms=30]]` turn (the key answers 409 until it ends)',
    content: `[[mock:slow ms=30]] ${WORDS}`,
    faults: (route) => [{ route, cutAfterEvents: 3 }],
    expect: { stream: content([2, 40], { resumed: true }) },
  },
  {
    fault: 'stream cut, then the key answers 409 `turn_in_progress` twice',
    spec: '4.4, 7.3',
    how: 'cutAfterEvents: 3 + inProgress: 2',
    faults: (route) => [
      { route, cutAfterEvents: 3 },
      { route, inProgress: 2 },
    ],
    expect: { stream: content(4, { resumed: true }) },
  },
  {
    fault: 'every connection is cut',
    spec: '4.4',
    how: 'cutAfterEvents: 2, times: 10; maxResumes 2',
    faults: (route) => [{ route, cutAfterEvents: 2, times: 10 }],
    options: { maxResumes: 2 },
    expect: {
      stream: {
        gets: { kind: 'error', name: 'StreamInterruptedError' },
        attempts: 3,
        ran: 1,
        messageId: true,
        readLater: true,
      },
    },
  },
  // An event arrives whole or not at all: a payload that is not JSON is what the service sent, passed on
  // as `off_schema`, never a reason to re-send the turn.
  ...(['not-json', 'no-data', 'unknown-event', 'second-terminal', 'after-terminal'] as const).map(tolerated),
  ...(['bom', 'crlf', 'cr', 'comments', 'huge-event'] as const).map(tolerated),
  {
    fault: '503 `interaction_backend_unavailable` on the answer',
    spec: '7.5',
    how: 'respond 503 api_v1_interaction_backend_unavailable',
    faults: respond({ status: 503, code: 'api_v1_interaction_backend_unavailable' }),
    expect: { answer: content(2, { toolRan: true }) },
  },
  {
    fault: '503 `action_result_unknown` (`check_status`) on the answer',
    spec: '7.5',
    how: "respond 503 api_v1_action_result_unknown, retry_action 'check_status'",
    faults: respond({
      status: 503,
      code: 'api_v1_action_result_unknown',
      errorDetails: { retry_action: 'check_status' },
    }),
    expect: { answer: content(1, { toolRan: true }) },
  },
  {
    fault: '409 `action_result_unknown` on the answer (rejected upstream)',
    spec: '7.5',
    how: 'respond 409 api_v1_action_result_unknown',
    faults: respond({ status: 409, code: 'api_v1_action_result_unknown', data: { upstream_status: 422 } }),
    expect: { answer: content(1, { toolRan: false }) },
  },
  {
    fault: '502 `api_v1_core_unavailable` on cancel (not delivered)',
    spec: '7.6',
    how: 'respond 502 api_v1_core_unavailable',
    faults: respond({ status: 502, code: 'api_v1_core_unavailable' }),
    expect: { cancel: { gets: { kind: 'cancelled' }, attempts: 2, ran: 1 } },
  },
];

/** The route a path's faults go to. */
export const ROUTE_OF: Record<Path, FaultRoute> = {
  sync: 'send',
  stream: 'stream',
  answer: 'answer',
  cancel: 'cancel',
};

const PATH_NAMES: Record<Path, string> = {
  sync: 'sync `send`',
  stream: '`stream`',
  answer: '`run` (tool answer)',
  cancel: '`cancel`',
};

/** The cells of the matrix, in table order. */
export function cells(): Array<{ row: FaultRow; path: Path; expected: Expected }> {
  return FAULT_MATRIX.flatMap((row) =>
    (['sync', 'stream', 'answer', 'cancel'] as const).flatMap((path) => {
      const expected = row.expect[path];
      return expected ? [{ row, path, expected }] : [];
    }),
  );
}

function describeGets(expected: Expected): string {
  const { gets } = expected;
  const parts: string[] = [];
  if (gets.kind === 'content') parts.push('the final content, once');
  else if (gets.kind === 'cancelled') parts.push('a `cancelled` end, once');
  else {
    const what = [gets.status, gets.code && `\`${gets.code}\``].filter(Boolean).join(' ');
    parts.push(
      `\`${gets.name}\`${what ? ` ${what}` : ''} with the key${expected.messageId ? ' and message id' : ''}`,
    );
  }
  if (expected.resumed) parts.push('re-opened with the key');
  if (expected.toolRan !== undefined) parts.push(expected.toolRan ? 'the tool ran' : 'the tool did not run');
  if (expected.readLater) parts.push('the key later reads the outcome');
  return parts.join('; ');
}

function describeAttempts(attempts: Expected['attempts']): string {
  return typeof attempts === 'number' ? String(attempts) : `${attempts[0]}–${attempts[1]}`;
}

/** The matrix as the Markdown table RELIABILITY.md publishes. */
export function renderMatrix(): string {
  const lines = [
    '| Fault | Spec | Made with | Path | The caller gets | Requests | Turn ran |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const { row, path, expected } of cells()) {
    lines.push(
      `| ${row.fault} | ${row.spec} | ${row.how} | ${PATH_NAMES[path]} | ${describeGets(expected)} | ${describeAttempts(expected.attempts)} | ${expected.ran === 1 ? 'once' : 'no'} |`,
    );
  }
  return lines.join('\n');
}
