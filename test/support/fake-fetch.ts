/** A recorded request of a fake fetch. */
export interface Recorded {
  method: string;
  url: string;
  headers: Headers;
  body: unknown;
}

/**
 * A reply function gets the request and the caller's signal. Wait on that signal, not on `request.signal`:
 * undici links a `Request`'s signal to the caller's only weakly, so after a GC an abort may never reach it.
 */
type Reply = Response | Error | ((request: Request, signal: AbortSignal) => Response | Promise<Response>);

/** A fetch that answers from a queue of replies (the last one repeats) and records every request. */
export function fakeFetch(...replies: Reply[]) {
  const requests: Recorded[] = [];
  const fetch = async (input: Request | URL | string, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const text = await request.text();
    requests.push({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: text ? JSON.parse(text) : undefined,
    });
    const reply = replies.length > 1 ? replies.shift()! : replies[0]!;
    if (reply instanceof Error) throw reply;
    return typeof reply === 'function' ? reply(request, init?.signal ?? request.signal) : reply.clone();
  };
  return { fetch, requests };
}

/** The fetch of a `fakeFetch`. */
export type FakeFetch = ReturnType<typeof fakeFetch>['fetch'];

/** A 2.1 success envelope around `data`. */
export function ok(data: unknown, meta: Record<string, unknown> = {}, status = 200): Response {
  return Response.json(
    {
      status: 'success',
      message: 'OK',
      message_code: 'api_v1_ok',
      data,
      meta: { request_id: crypto.randomUUID(), ...meta },
    },
    { status },
  );
}

/** An error response as the service sends it. */
export function fail(
  status: number,
  message_code: string,
  data: unknown = null,
  extra: { error_details?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Response {
  return Response.json(
    {
      status: 'error',
      message: `failed: ${message_code}`,
      message_code,
      data,
      meta: { request_id: '00000000-0000-4000-8000-000000000001', error_details: extra.error_details },
    },
    { status, headers: extra.headers ?? {} },
  );
}

/** A valid skill as the service returns it. */
export function skill(overrides: Record<string, unknown> = {}) {
  return {
    id: 1,
    name: 'Tone',
    description: '',
    instructions: 'Be brief.',
    icon: 'sparkles',
    level: 'personal',
    visibility: 'public',
    workspace_id: null,
    is_active: true,
    created_at: '2026-11-22T10:00:00Z',
    ...overrides,
  };
}

/** A completed assistant turn (id 7) of chat `chatId` as the service returns it. */
export function completedTurn(chatId: string, overrides: Record<string, unknown> = {}) {
  return {
    id: 7,
    chat_id: chatId,
    role: 'assistant',
    content: 'Hello.',
    status: 'completed',
    usage: null,
    steps: [],
    sources: [],
    anonymization: null,
    metadata: null,
    ...overrides,
  };
}
