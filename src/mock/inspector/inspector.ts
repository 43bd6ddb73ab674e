import { ANSWERS } from '../../contract/interactions.js';
import { isEventStream } from '../http/sse.js';
import type { ConvoMock } from '../mock.js';
import { CredentialNames } from './credential-names.js';
import { ExchangeLog, MAX_EXCHANGES } from './exchanges.js';
import { InspectorGuard } from './guard.js';
import { harOf } from './har.js';
import { InspectorInputError, isObject, parseFilter, readInput } from './input.js';
import { TokenMask } from './masking.js';
import { INSPECTOR_PAGE } from './page.js';
import { PageFaults } from './page-faults.js';
import { StateView } from './state-view.js';

/** The mock's inspector: its page and endpoints, and what it records of the traffic. */
export interface Inspector {
  /** Answers `GET /` and `/_inspector/*`; undefined for any other request, which goes to the mock. */
  handle(request: Request): Promise<Response | undefined>;
  /** Has the mock answer `request` and records the exchange; returns the response to send. */
  exchange(request: Request): Promise<Response>;
  /** The `Host` values the server is reached by (`reachableHosts`), for the Host check. */
  listening(hosts: readonly string[]): void;
}

/** Creates the inspector of `mock`. */
export function createInspector(mock: ConvoMock): Inspector {
  const guard = new InspectorGuard();
  const credentials = mock.store.credentials();
  const names = new CredentialNames(credentials);
  // Every configured token, `mock-token` among them when it is the credential.
  const mask = new TokenMask(credentials.map((credential) => credential.token));
  const log = new ExchangeLog(names, mask);
  // Every JSON answer passes the mask once more, whole: a field that was not masked on its own is then.
  const masked = (value: unknown, init: ResponseInit = {}) =>
    new Response(mask.text(JSON.stringify(value)), {
      ...init,
      headers: { 'content-type': 'application/json', ...NO_STORE, ...init.headers },
    });
  const faults = new PageFaults(mock.faults);
  const view = new StateView(mock, { names, mask, log, faults });
  const run = (request: Request, from: 'client' | 'inspector') =>
    log.run(
      request,
      (r) => mock.handle(r),
      from,
      (handled, id) => faults.check(handled, id),
    );

  /** Sends a request to the mock as credential `credentialId`, recorded as the inspector's. */
  const call = async (credentialId: number, method: string, path: string, body?: unknown, headers = {}) => {
    const credential = names.byId(credentialId);
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
    return run(request, 'inspector');
  };

  const answer = async (input: Record<string, unknown>) => {
    const interaction = mock.store.interactions().find((i) => i.action_id === input.action_id);
    if (!interaction) throw new InspectorInputError('no such interaction');
    const body = { ...(isObject(input.body) ? input.body : {}), action_id: interaction.action_id };
    const path = `/api/v1/chats/${interaction.chat_id}/actions/${ANSWERS[interaction.kind].endpoint}`;
    return call(interaction.credential_id, 'POST', path, body);
  };

  const send = async (input: Record<string, unknown>) => {
    const content = typeof input.content === 'string' ? input.content : '';
    const chatId = typeof input.chat_id === 'string' && input.chat_id ? input.chat_id : crypto.randomUUID();
    const credentialId = typeof input.credential === 'number' ? input.credential : (names.list()[0]?.id ?? 1);
    const body = { content, permission_mode: input.permission_mode === 'auto' ? 'auto' : 'manual' };
    const response = await call(
      credentialId,
      'POST',
      `/api/v1/chats/${encodeURIComponent(chatId)}/messages/stream`,
      body,
      {
        accept: 'text/event-stream',
        'idempotency-key': crypto.randomUUID(),
      },
    );
    // The page follows the turn through the state; the stream is read here so that it is recorded.
    if (isEventStream(response)) void drain(response.body);
    else return response;
    return Response.json({ chat_id: chatId }, { status: 202 });
  };

  const exchangeDetail = (query: URLSearchParams) => {
    const id = query.get('id') ?? '';
    const exchange = /^[1-9]\d{0,9}$/.test(id) ? log.get(Number(id)) : undefined;
    if (!exchange)
      throw new InspectorInputError(`no exchange ${id.slice(0, 20)} (the last ${MAX_EXCHANGES} are kept)`);
    return masked(view.exchange(exchange));
  };

  return {
    listening: (hosts) => guard.listening(hosts),
    exchange: (request) => run(request, 'client'),
    handle: async (request) => {
      const url = new URL(request.url);
      const { pathname } = url;
      const own = pathname.startsWith('/_inspector/') || (pathname === '/' && request.method === 'GET');
      if (!own) return undefined;
      const route = `${request.method} ${pathname}`;
      const change = request.method !== 'GET';
      const refused = guard.refusal(request, change ? 'change' : pathname === '/' ? 'page' : 'read');
      if (refused) return text(403, refused);
      const fail = (status: number, message: string) => text(status, mask.text(message));
      try {
        switch (route) {
          case 'GET /':
            return new Response(INSPECTOR_PAGE, { headers: PAGE_HEADERS });
          case 'GET /_inspector/state':
            return masked(view.state(parseFilter(url.searchParams), url.searchParams.get('since')));
          case 'GET /_inspector/turn':
            return masked(view.turn(url.searchParams.get('id') ?? ''));
          case 'GET /_inspector/exchange':
            return exchangeDetail(url.searchParams);
          case 'GET /_inspector/har':
            return masked(harOf(log.list(parseFilter(url.searchParams))), {
              headers: {
                'content-disposition': `attachment; filename="convo-mock-${new Date().toISOString().replace(/[:.]/g, '-')}.har"`,
              },
            });
          case 'POST /_inspector/answer':
            return relay(await answer(await readInput(request)), mask);
          case 'POST /_inspector/send':
            return relay(await send(await readInput(request)), mask);
          case 'POST /_inspector/faults':
            return masked(faults.arm(await readInput(request)), { status: 201 });
          case 'POST /_inspector/faults/clear':
            await readInput(request);
            faults.clear();
            return Response.json({ cleared: true });
          case 'POST /_inspector/reset':
            mock.reset();
            faults.reset();
            log.clear();
            return Response.json({ reset: true });
          default:
            return fail(change ? 405 : 404, `no inspector endpoint ${route}`);
        }
      } catch (error) {
        if (error instanceof InspectorInputError) return fail(400, error.message);
        throw error;
      }
    },
  };
}

const NO_STORE = { 'cache-control': 'no-store' };

/** The page's own headers: no framing by other sites, nothing loaded from elsewhere. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
};

function text(status: number, message: string): Response {
  return new Response(`${message}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/** The mock's answer to the page, tokens masked, as JSON with its status (a drop becomes 502). */
async function relay(response: Response, mask: TokenMask): Promise<Response> {
  if (response.type === 'error') return text(502, 'the mock dropped the connection (a fault)');
  return new Response(mask.text(await response.text()), {
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
