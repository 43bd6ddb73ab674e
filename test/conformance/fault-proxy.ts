import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An answer on its way back through the proxy: what a fault may change. */
export interface Passing {
  /** The request's method and path, without the query (`GET /api/v1/chats`). */
  call: string;
  /** The request's query (`?page=2`), or ''. */
  query: string;
  /** The request's `Idempotency-Key`, when it had one. */
  key: string | undefined;
  /** The status. */
  status: number;
  /** The content type. */
  contentType: string;
  /** The whole body, as text. */
  body: string;
  /** The bearer token the client sent (before any mapping to the upstream's). */
  token: string | undefined;
}

/** What a fault does to an answer: changes it, or (`'hang'`) never sends it. */
export type Fault = (answer: Passing) => Passing | 'hang';

/** A proxy in front of `upstream` that applies `fault` to every answer (bodies read whole, then sent). */
export interface FaultProxy {
  /** The proxy's base URL. */
  readonly url: string;
  /** Stops it. */
  close(): Promise<void>;
}

const FORWARDED = ['authorization', 'idempotency-key', 'content-type', 'accept'];

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? Buffer.concat(chunks).toString() : undefined;
}

/** What a proxy may do besides its fault. */
export interface ProxyOptions {
  /** Bearer tokens the proxy accepts, each mapped to the upstream's (any other is passed on as it is). */
  tokens?: Readonly<Record<string, string>>;
}

/** Starts a proxy to `upstream` on a free loopback port. */
export async function startFaultProxy(
  upstream: string,
  fault: Fault,
  options: ProxyOptions = {},
): Promise<FaultProxy> {
  const server: Server = createServer(async (request, response) => {
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const token = /^Bearer (.*)$/.exec(headers.authorization ?? '')?.[1];
    const mapped = token === undefined ? undefined : options.tokens?.[token];
    if (mapped !== undefined) headers.authorization = `Bearer ${mapped}`;
    const url = new URL(request.url ?? '/', upstream);
    const answer = await fetch(url, {
      method: request.method ?? 'GET',
      headers,
      body: (await readBody(request)) ?? null,
    });
    const changed = fault({
      call: `${request.method} ${url.pathname}`,
      query: url.search,
      key: headers['idempotency-key'],
      status: answer.status,
      contentType: answer.headers.get('content-type') ?? '',
      body: await answer.text(),
      token,
    });
    if (changed === 'hang') return;
    response.writeHead(changed.status, { 'content-type': changed.contentType });
    response.end(changed.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Changes a JSON body. */
export const json =
  (change: (body: Record<string, unknown>, answer: Passing) => void): Fault =>
  (answer) => {
    if (!answer.contentType.includes('json')) return answer;
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    change(body, answer);
    return { ...answer, body: JSON.stringify(body) };
  };

/** Changes an event-stream body. */
const events =
  (change: (body: string, answer: Passing) => string): Fault =>
  (answer) =>
    answer.contentType.startsWith('text/event-stream')
      ? { ...answer, body: change(answer.body, answer) }
      : answer;

/** Changes the answers to a code: its status, or its code. */
const answering =
  (code: string, change: Partial<Pick<Passing, 'status'>> & { code?: string }): Fault =>
  (answer) => {
    if (!answer.contentType.includes('json') || !answer.body.includes(`"${code}"`)) return answer;
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    if (body.message_code !== code) return answer;
    if (change.code) body.message_code = change.code;
    return { ...answer, status: change.status ?? answer.status, body: JSON.stringify(body) };
  };

/** A fault that acts on streams answering a key already seen: the replays (4.4). */
function onReplays(change: (body: string) => string): Fault {
  const seen = new Set<string>();
  return events((body, answer) => {
    if (answer.key === undefined) return body;
    const replay = seen.has(answer.key);
    seen.add(answer.key);
    return replay ? change(body) : body;
  });
}

/** Answers 500 where `call` was refused with a 4xx whose body holds `naming`: a limit not enforced. */
const refusedAs500 =
  (call: string, naming: string): Fault =>
  (answer) =>
    answer.call === call && answer.status >= 400 && answer.status <= 499 && answer.body.includes(naming)
      ? { ...answer, status: 500 }
      : answer;

const isList = (answer: Passing, path: string) =>
  answer.call === `GET ${path}` && answer.status === 200 && answer.contentType.includes('json');

/**
 * The contract broken in chosen ways, each named as the tests name it, with the section whose check must
 * fail (and alone: one defect, one FAIL) and the request it must name. Each is built fresh per run: some
 * keep state (the keys they saw).
 */
export const FAULTS: Record<string, { make: () => Fault; section: string; call: RegExp; got: RegExp }> = {
  "another credential's chat answered 403": {
    make: () => answering('api_v1_not_found', { status: 403 }),
    section: '5',
    call: /^GET \/api\/v1\/chats\/[0-9a-f-]{36}$/,
    got: /^403 api_v1_not_found$/,
  },
  'a wrong message_code': {
    make: () =>
      json((body, answer) => {
        if (answer.status < 300) body.message_code = 'api_v1_success';
      }),
    section: '2.1',
    call: /^GET \/api\/v1\/chats(\?|$)/,
    got: /message_code is "api_v1_success"/,
  },
  'a missing meta.total': {
    make: () =>
      json((body) => {
        if (Array.isArray(body.data)) delete (body.meta as Record<string, unknown>).total;
      }),
    section: '2.1',
    call: /^GET \/api\/v1\/chats(\?|$)/,
    got: /meta lacks an integer total/,
  },
  'an event after the terminal one': {
    make: () => events((body) => `${body}event: message.delta\ndata: {"text":" late","replace":false}\n\n`),
    section: '6',
    call: /^POST \/api\/v1\/chats\/[0-9a-f-]{36}\/messages\/stream$/,
    got: /^\["message.delta"\]$/,
  },
  'a stream without message.start': {
    make: () => events((body) => body.replace(/event: message\.start\n(data: .*\n)+\n/, '')),
    section: '6',
    call: /^POST \/api\/v1\/chats\/[0-9a-f-]{36}\/messages\/stream$/,
    got: /^message.step first/,
  },
  'a replay that re-runs the turn (another message id)': {
    make: () =>
      onReplays((body) =>
        body.replace(/"message_id":(\d+)/g, (_, id) => `"message_id":${Number(id) + 1000}`),
      ),
    section: '4.4',
    call: /^POST \/api\/v1\/chats\/[0-9a-f-]{36}\/messages\/stream$/,
    got: /"message_id":\d+/,
  },
  'chats listed oldest first': {
    make: () =>
      json((body, answer) => {
        if (isList(answer, '/api/v1/chats') && Array.isArray(body.data)) body.data.reverse();
      }),
    section: '4.2',
    call: /^GET \/api\/v1\/chats(\?|$)/,
    got: /^positions \d+ and \d+/,
  },
  'content too long answered 400': {
    make: () => answering('api_v1_content_too_long', { status: 400 }),
    section: '7.3',
    call: /^POST \/api\/v1\/chats\/[0-9a-f-]{36}\/messages$/,
    got: /^400 api_v1_content_too_long$/,
  },
  'metadata not echoed by the synchronous send': {
    make: () =>
      json((body, answer) => {
        if (/^POST \/api\/v1\/chats\/[^/]+\/messages$/.test(answer.call) && answer.status === 200) {
          (body.data as Record<string, unknown>).metadata = null;
        }
      }),
    section: '4.3',
    call: /^POST \/api\/v1\/chats\/[0-9a-f-]{36}\/messages$/,
    got: /^null$/,
  },
  "a chat's timestamps not in UTC": {
    make: () => (answer) =>
      answer.call.startsWith('POST /api/v1/chats') && !answer.call.includes('/messages')
        ? { ...answer, body: answer.body.replace(/"(created_at|updated_at)":"([^"]+)Z"/g, '"$1":"$2+02:00"') }
        : answer,
    section: '4.2',
    call: /^POST \/api\/v1\/chats$/,
    got: /^created_at ".*\+02:00"$/,
  },
  'a scope refusal without data.required_scopes': {
    make: () =>
      json((body) => {
        if (body.message_code === 'api_token_scope_not_allowed') body.data = {};
      }),
    section: '5',
    call: /^POST \/api\/v1\/chats\/[0-9a-f-]{36}\/messages$/,
    got: /^data \{\}$/,
  },
  'invalid references answered 400 api_v1_validation_error': {
    make: () => answering('prompt_refs_invalid', { status: 400, code: 'api_v1_validation_error' }),
    section: '7.2',
    call: /^POST \/api\/v1\/skills$/,
    got: /^400 api_v1_validation_error$/,
  },
  'an unknown interaction answered 409 api_v1_action_not_pending': {
    make: () => answering('api_v1_action_not_found', { status: 409, code: 'api_v1_action_not_pending' }),
    section: '7.5',
    call: /^POST \/api\/v1\/chats\/[0-9a-f-]{36}\/actions\/approve-tool$/,
    got: /^409 api_v1_action_not_pending$/,
  },
  'deltas that do not fold to the completed content': {
    make: () => events((body) => body.replace(/("text":")/, '$1garbled ')),
    section: '6',
    call: /^POST \/api\/v1\/chats\/[0-9a-f-]{36}\/messages\/stream$/,
    got: /^"/,
  },
  'a skill shared outside the company answered 404 api_v1_not_found': {
    make: () => answering('api_v1_resource_not_allowed', { status: 404, code: 'api_v1_not_found' }),
    section: '7.2',
    call: /^POST \/api\/v1\/skills$/,
    got: /^404 api_v1_not_found$/,
  },
  "an allowlisted credential's skill creation answered 422": {
    make: () => answering('api_v1_resource_policy_create_denied', { status: 422 }),
    section: '7.2',
    call: /^POST \/api\/v1\/skills$/,
    got: /^422 api_v1_resource_policy_create_denied$/,
  },
  'a chat name over 200 characters answered 500': {
    make: () => refusedAs500('POST /api/v1/chats', ''),
    section: '4.2',
    call: /^POST \/api\/v1\/chats$/,
    got: /^500 /,
  },
  'chats created in auto mode by default': {
    make: () =>
      json((body, answer) => {
        if (answer.call === 'POST /api/v1/chats' && answer.status < 300) {
          (body.data as Record<string, unknown>).permission_mode = 'auto';
        }
      }),
    section: '4.2',
    call: /^POST \/api\/v1\/chats$/,
    got: /^permission_mode "auto"$/,
  },
  "an update naming a chat's permission mode answered 500": {
    make: () => (answer) =>
      /^PATCH \/api\/v1\/chats\/[^/]+$/.test(answer.call) && (answer.status === 400 || answer.status === 422)
        ? { ...answer, status: 500 }
        : answer,
    section: '4.2',
    call: /^PATCH \/api\/v1\/chats\/[0-9a-f-]{36}$/,
    got: /^500 /,
  },
  "a chat's turns listed newest first": {
    make: () =>
      json((body, answer) => {
        if (/^GET \/api\/v1\/chats\/[^/]+\/messages$/.test(answer.call) && Array.isArray(body.data))
          body.data.reverse();
      }),
    section: '4.2',
    call: /^GET \/api\/v1\/chats\/[0-9a-f-]{36}\/messages(\?|$)/,
    got: /^positions 1 and 0 /,
  },
  'a skill update citing a missing resource answered 400 api_v1_validation_error': {
    make: () => (answer) =>
      answer.call.startsWith('PATCH ')
        ? answering('prompt_refs_invalid', { status: 400, code: 'api_v1_validation_error' })(answer)
        : answer,
    section: '7.2',
    call: /^PATCH \/api\/v1\/skills\/\d+$/,
    got: /^400 api_v1_validation_error$/,
  },
  'a skill update with instructions over 12,000 characters answered 500': {
    make: () => (answer) =>
      /^PATCH \/api\/v1\/skills\/\d+$/.test(answer.call) && answer.body.includes('"prompt_text_too_long"')
        ? { ...answer, status: 500 }
        : answer,
    section: '7.2',
    call: /^PATCH \/api\/v1\/skills\/\d+$/,
    got: /^500 prompt_text_too_long$/,
  },
  'a prompt in the synchronous answer': {
    make: () =>
      json((body, answer) => {
        if (/^POST \/api\/v1\/chats\/[^/]+\/messages$/.test(answer.call) && answer.status === 200) {
          (body.data as Record<string, unknown>).prompt = 'what was sent';
        }
      }),
    section: '4.3',
    call: /^POST \/api\/v1\/chats\/[0-9a-f-]{36}\/messages$/,
    got: /^prompt "what was sent"$/,
  },
  'meta.page on an answer that is not a list': {
    make: () =>
      json((body, answer) => {
        if (answer.status < 300 && !Array.isArray(body.data) && body.meta)
          (body.meta as Record<string, unknown>).page = 1;
      }),
    section: '2.1',
    call: /^(GET|POST|PATCH|DELETE) \/api\/v1\//,
    got: /meta holds page on an answer that is not a list/,
  },
  'a synchronous send to an unknown chat id not creating it': {
    make: () => {
      const sent = new Set<string>();
      return (answer) => {
        const sync = /^POST \/api\/v1\/chats\/([^/]+)\/messages$/.exec(answer.call)?.[1];
        if (sync && answer.status === 200) sent.add(sync);
        const read = /^GET \/api\/v1\/chats\/([^/]+)$/.exec(answer.call)?.[1];
        if (!read || !sent.has(read)) return answer;
        const body = {
          status: 'error',
          message: 'Not found.',
          message_code: 'api_v1_not_found',
          data: null,
          meta: { request_id: crypto.randomUUID() },
        };
        return { ...answer, status: 404, body: JSON.stringify(body) };
      };
    },
    section: '4.3',
    call: /^GET \/api\/v1\/chats\/[0-9a-f-]{36}$/,
    got: /^404 api_v1_not_found$/,
  },
  'a connector attachment refused without naming connectors:use': {
    make: () =>
      json((body) => {
        const data = body.data as { required_scopes?: string[] } | undefined;
        if (
          body.message_code === 'api_token_scope_not_allowed' &&
          data?.required_scopes?.includes('connectors:use')
        ) {
          data.required_scopes = ['chat:write'];
        }
      }),
    section: '5',
    call: /^POST \/api\/v1\/chats\/[0-9a-f-]{36}\/messages$/,
    got: /^data \{"required_scopes":\["chat:write"\]\}$/,
  },
  'a skill description over 500 characters answered 500': {
    make: () => refusedAs500('POST /api/v1/skills', '"description"'),
    section: '4.1',
    call: /^POST \/api\/v1\/skills$/,
    got: /^500 /,
  },
};

/** Services that differ from convo-mock only where the spec allows: the kit must pass each. */
export const VARIANTS: Record<string, () => Fault> = {
  // 4.4: "re-delivers that outcome": message.start and the terminal event, whose content is the answer.
  'a replay without the deltas': () =>
    onReplays((body) =>
      body
        .split('\n\n')
        .filter((event) => !event.startsWith('event: message.delta'))
        .join('\n\n'),
    ),
  // 2.1 says UTC date-times, not their precision; 4.2 "newest first" says nothing of ties.
  'timestamps to the second, ties listed in id order': () =>
    json((body, answer) => {
      const truncate = (record: Record<string, unknown>) => {
        for (const field of ['created_at', 'updated_at']) {
          if (typeof record[field] === 'string') record[field] = record[field].replace(/\.\d+Z$/, 'Z');
        }
      };
      const data = body.data;
      if (Array.isArray(data)) for (const item of data) truncate(item as Record<string, unknown>);
      else if (data && typeof data === 'object') truncate(data as Record<string, unknown>);
      if (isList(answer, '/api/v1/chats') && Array.isArray(data)) {
        const chats = data as Array<{ id: string; created_at: string }>;
        chats.sort((a, b) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id));
      }
    }),
  // 4.1 fixes no order of the skills list.
  'skills listed oldest first': () =>
    json((body, answer) => {
      if (isList(answer, '/api/v1/skills') && Array.isArray(body.data)) body.data.reverse();
    }),
  // 5 names no status for a missing or unknown credential: a 400 and a 403 conform (WARN, not FAIL).
  'a bad credential answered 400 and a missing scope 404': () => (answer) =>
    answer.status === 401
      ? { ...answer, status: 400 }
      : answer.status === 403 && answer.call === 'GET /api/v1/skills'
        ? { ...answer, status: 404 }
        : answer,
  // 2.5: a credential without libraries:read or connectors:use sees neither block; the kit cannot tell
  // the main credential's scopes, so it does not require them.
  'a catalog without the libraries and connectors blocks': () =>
    json((body, answer) => {
      if (answer.call === 'GET /api/v1/chat/catalog' && answer.status === 200) {
        const data = body.data as Record<string, unknown>;
        delete data.libraries;
        delete data.connectors;
      }
    }),
  // A plain turn's model may fail once: the kit sends it again with a new key.
  'a first streamed turn that fails upstream': () => {
    let failed = false;
    return events((body) => {
      if (failed) return body;
      failed = true;
      const start = /event: message\.start\n(data: .*\n)+\n/.exec(body)?.[0] ?? '';
      return `${start}event: message.error\ndata: {"code":"upstream_error","message":"model down","retryable":false}\n\n`;
    });
  },
};
