import { isEventStream } from '../http/sse.js';
import type { ConvoMock } from '../mock.js';
import { DIRECTIVE_NAMES } from '../model/directives.js';
import { InspectorGuard } from './guard.js';
import { INSPECTOR_PAGE } from './page.js';
import { observedBody, type StreamTimeline, TimelineBuilder } from './timeline.js';

/** One request the mock answered, as the inspector lists it. */
export interface RequestEntry {
  /** Sequence number, from 1. */
  id: number;
  /** When it arrived, ISO 8601 UTC. */
  at: string;
  /** Method. */
  method: string;
  /** Path and query. */
  path: string;
  /** Status answered; 0 for a dropped connection. */
  status: number;
  /** Which credential sent it, by name (never its token): `credential 1 (user 1)`. */
  credential: string;
  /** Milliseconds to the response headers, or to the end of an event stream once it ended. */
  ms: number;
  /** Whether an event stream is still being written. */
  open: boolean;
  /** `inspector` for what the inspector's page sent, `client` otherwise. */
  from: 'client' | 'inspector';
}

/** The mock's inspector: its page and endpoints, and what it records of the traffic. */
export interface Inspector {
  /** Answers `GET /` and `/_inspector/*`; undefined for any other request, which goes to the mock. */
  handle(request: Request): Promise<Response | undefined>;
  /** Records a request the mock answered; returns the response to send (an event stream, observed). */
  record(request: Request, response: Response, startedMs: number): Response;
  /** The `Host` values the server is reached by (`reachableHosts`), for the Host check. */
  listening(hosts: readonly string[]): void;
}

/** Requests and streams kept; older ones are forgotten. */
const MAX_REQUESTS = 200;
const MAX_STREAMS = 200;
/** The most a change request may carry. */
const MAX_BODY = 64 * 1024;
/** Endpoint of 4.5 by interaction kind (6). */
const ANSWER_PATHS: Record<string, string> = {
  tool_approval: 'approve-tool',
  plan_approval: 'respond-plan',
  elicitation: 'respond-elicitation',
  auth_required: 'cancel-auth',
};

/** Creates the inspector of `mock`. */
export function createInspector(mock: ConvoMock): Inspector {
  const guard = new InspectorGuard();
  const credentials = mock.store.credentials();
  const labels = new Map(credentials.map((c) => [c.token, `credential ${c.id} (user ${c.userId})`]));
  const labelOf = (id: number) => {
    const credential = credentials.find((c) => c.id === id);
    return credential ? `credential ${credential.id} (user ${credential.userId})` : `credential ${id}`;
  };
  let requests: RequestEntry[] = [];
  let streams: StreamTimeline[] = [];
  let sequence = 0;

  const record = (request: Request, response: Response, startedMs: number, from: RequestEntry['from']) => {
    const url = new URL(request.url);
    const token = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]?.trim();
    const entry: RequestEntry = {
      id: ++sequence,
      at: new Date().toISOString(),
      method: request.method,
      path: url.pathname + url.search,
      status: response.type === 'error' ? 0 : response.status,
      credential: token === undefined ? 'no credential' : (labels.get(token) ?? 'unknown credential'),
      ms: Math.round(performance.now() - startedMs),
      open: false,
      from,
    };
    requests.push(entry);
    if (requests.length > MAX_REQUESTS) requests = requests.slice(-MAX_REQUESTS);
    if (!isEventStream(response)) return response;
    const builder = new TimelineBuilder();
    streams.push(builder.timeline);
    if (streams.length > MAX_STREAMS) streams = streams.slice(-MAX_STREAMS);
    entry.open = true;
    const body = observedBody(response.body, builder, () => {
      entry.open = false;
      entry.ms = Math.round(performance.now() - startedMs);
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };

  /** Sends a request to the mock as credential `credentialId`, recorded as the inspector's. */
  const call = async (credentialId: number, method: string, path: string, body?: unknown, headers = {}) => {
    const credential = credentials.find((c) => c.id === credentialId);
    if (!credential) throw new InspectorInputError(`no credential ${credentialId}`);
    const request = new Request(new URL(path, mock.url), {
      method,
      headers: {
        authorization: `Bearer ${credential.token}`,
        'content-type': 'application/json',
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const started = performance.now();
    return record(request, await mock.handle(request), started, 'inspector');
  };

  const state = () => {
    const now = Date.now();
    const turns = mock.store
      .turns()
      .slice(-50)
      .reverse()
      .map((turn) => ({
        id: turn.id,
        chat_id: turn.chat_id,
        key: turn.key,
        status: turn.status,
        channel: turn.channel,
        permission_mode: turn.permission_mode,
        credential: labelOf(turn.credential_id),
        prompt: turn.prompt,
        content: turn.content,
        created_at: turn.created_at,
        streams: streams.filter((stream) => stream.turnId === turn.id),
      }));
    const pending = mock.store.pendingInteractions().map((interaction) => ({
      action_id: interaction.action_id,
      kind: interaction.kind,
      payload: interaction.payload,
      resolution: interaction.resolution,
      turn_id: interaction.turn_id,
      chat_id: interaction.chat_id,
      credential: labelOf(interaction.credential_id),
      remaining_ms: Math.max(0, interaction.expires_at_ms - now),
    }));
    return {
      credentials: credentials.map((c) => ({ id: c.id, name: labelOf(c.id), scopes: c.scopes })),
      directives: DIRECTIVE_NAMES,
      requests: requests.slice().reverse(),
      turns,
      pending,
    };
  };

  const answer = async (input: Record<string, unknown>) => {
    const interaction = mock.store.interactions().find((i) => i.action_id === input.action_id);
    if (!interaction) throw new InspectorInputError('no such interaction');
    const answerPath = ANSWER_PATHS[interaction.kind];
    if (!answerPath) throw new InspectorInputError(`no answer endpoint for kind ${interaction.kind}`);
    const body = { ...(isObject(input.body) ? input.body : {}), action_id: interaction.action_id };
    const path = `/api/v1/chats/${interaction.chat_id}/actions/${answerPath}`;
    return call(interaction.credential_id, 'POST', path, body);
  };

  const send = async (input: Record<string, unknown>) => {
    const content = typeof input.content === 'string' ? input.content : '';
    const chatId = typeof input.chat_id === 'string' && input.chat_id ? input.chat_id : crypto.randomUUID();
    const credentialId = typeof input.credential === 'number' ? input.credential : (credentials[0]?.id ?? 1);
    const body = { content, permission_mode: input.permission_mode === 'auto' ? 'auto' : 'manual' };
    const response = await call(credentialId, 'POST', `/api/v1/chats/${chatId}/messages/stream`, body, {
      accept: 'text/event-stream',
      'idempotency-key': crypto.randomUUID(),
    });
    // The page follows the turn through the state; the stream is read here so that it is recorded.
    if (isEventStream(response)) void drain(response.body);
    else return response;
    return Response.json({ chat_id: chatId }, { status: 202 });
  };

  return {
    listening: (hosts) => guard.listening(hosts),
    record: (request, response, startedMs) => record(request, response, startedMs, 'client'),
    handle: async (request) => {
      const { pathname } = new URL(request.url);
      const own = pathname.startsWith('/_inspector/') || (pathname === '/' && request.method === 'GET');
      if (!own) return undefined;
      const route = `${request.method} ${pathname}`;
      const change = request.method !== 'GET';
      const refused = guard.refusal(request, change);
      if (refused) return text(403, refused);
      try {
        switch (route) {
          case 'GET /':
            return new Response(INSPECTOR_PAGE, { headers: PAGE_HEADERS });
          case 'GET /_inspector/state':
            return Response.json(state(), { headers: { 'cache-control': 'no-store' } });
          case 'POST /_inspector/answer':
            return relay(await answer(await readInput(request)));
          case 'POST /_inspector/send':
            return relay(await send(await readInput(request)));
          case 'POST /_inspector/reset':
            mock.reset();
            requests = [];
            streams = [];
            return Response.json({ reset: true });
          default:
            return text(change ? 405 : 404, `no inspector endpoint ${route}`);
        }
      } catch (error) {
        if (error instanceof InspectorInputError) return text(400, error.message);
        throw error;
      }
    },
  };
}

/** The page's own headers: no framing by other sites, nothing loaded from elsewhere. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
};

/** A request to the inspector that cannot be carried out; answered 400. */
class InspectorInputError extends Error {}

function text(status: number, message: string): Response {
  return new Response(`${message}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON object of a change request, at most `MAX_BODY` bytes. */
async function readInput(request: Request): Promise<Record<string, unknown>> {
  const body = await request.text();
  if (body.length > MAX_BODY) throw new InspectorInputError(`the body is over ${MAX_BODY} bytes`);
  let input: unknown;
  try {
    input = JSON.parse(body);
  } catch {
    throw new InspectorInputError('the body is not JSON');
  }
  if (!isObject(input)) throw new InspectorInputError('the body is not a JSON object');
  return input;
}

/** The mock's answer to the page, as JSON with its status (a drop becomes 502). */
async function relay(response: Response): Promise<Response> {
  if (response.type === 'error') return text(502, 'the mock dropped the connection (a fault)');
  return new Response(await response.text(), {
    status: response.status,
    headers: { 'content-type': response.headers.get('content-type') ?? 'application/json' },
  });
}

async function drain(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  try {
    while (!(await reader.read()).done) {}
  } catch {
    // a cut stream: the timeline shows it
  }
}
