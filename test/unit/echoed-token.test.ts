import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConvoChatTransport, toUIMessageStream } from '../../src/ai/index.js';
import { NO_REDACTION, redactorOf } from '../../src/contract/redact.js';
import { redactingLogger } from '../../src/http/console-logger.js';
import { apiFailure } from '../../src/http/failures.js';
import {
  type ApiError,
  Client,
  ConvoError,
  RedirectError,
  RelayedTurnError,
  RelayedTurnStream,
  ResponseValidationError,
  TurnError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { fakeFetch } from '../support/fake-fetch.js';
import { sseText } from '../support/sse.js';

/**
 * Section 5: the token travels in the Authorization header only. A hostile service echoes the token it was
 * sent everywhere it can (an error body's message, data, keys and meta, problem details, an HTML page,
 * text, a 422's field names, headers the SDK quotes, a `message.error`, an off-schema event); no error,
 * log line, relay or UI chunk the SDK makes of it holds the token, raw, JSON-escaped or percent-encoded.
 */

const TOKENS = {
  // Five characters: the shortest a real credential could be searched for without hiding ordinary text.
  short: 'Zq7Xk',
  // Forty, with characters that JSON-escaping and percent-encoding both change.
  long: 'tok_live_"Q\\9/+=&SECRET;7f3a9c41d2e0b5aa',
} as const;

const CHAT = '00000000-0000-4000-8000-0000000000c1';
const REQUEST_ID = '00000000-0000-4000-8000-0000000000e1';

/** The token of a request, as the service read it from the Authorization header. */
const tokenOf = (request: Request) => (request.headers.get('authorization') ?? '').replace(/^Bearer /, '');

/** Every form of `token` a text could carry it in. */
const formsOf = (token: string) => [token, JSON.stringify(token).slice(1, -1), encodeURIComponent(token)];

/** What each hostile answer is: a method and path of the API, and the answer echoing the token. */
type Echo = (token: string) => Response;

const ECHOES: Record<string, Echo> = {
  'an error body: message, data values and keys, request id, error details, a header': (token) =>
    Response.json(
      {
        status: 'error',
        message: `the credential ${token} is not allowed`,
        message_code: 'api_v1_unauthorized',
        data: { echo: token, [token]: 'as a key', nested: [{ authorization: `Bearer ${token}` }] },
        meta: { request_id: token, error_details: { service: token, retry_action: 'retry' } },
      },
      { status: 401, headers: { 'x-echo-authorization': `Bearer ${token}` } },
    ),
  'problem details of a gateway (500 application/problem+json)': (token) =>
    new Response(
      JSON.stringify({
        type: 'about:blank',
        title: 'Internal Server Error',
        detail: `upstream refused Bearer ${token}`,
        instance: `/api/v1/skills?token=${encodeURIComponent(token)}`,
      }),
      { status: 500, headers: { 'content-type': 'application/problem+json' } },
    ),
  "a proxy's HTML page": (token) =>
    new Response(`<html><head><title>Denied ${token}</title></head><body>${token}</body></html>`, {
      status: 502,
      headers: { 'content-type': 'text/html' },
    }),
  'text quoting the header JSON-escaped and percent-encoded': (token) =>
    new Response(
      `upstream said {"authorization": "Bearer ${JSON.stringify(token).slice(1, -1)}" at /cb?t=${encodeURIComponent(token)}`,
      { status: 503 },
    ),
  "a 422 naming the token as a field and in a field's problem": (token) =>
    Response.json(
      {
        status: 'error',
        message: `invalid ${token}`,
        message_code: 'api_v1_validation_error',
        data: [
          { field: token, message: `must not be ${token}` },
          { field: 'description', message: 'too long' },
        ],
        meta: { request_id: REQUEST_ID },
      },
      { status: 422 },
    ),
  'a redirect whose Location quotes it': (token) =>
    new Response(null, { status: 302, headers: { location: `https://elsewhere.test/?t=${token}` } }),
  'a success off the contract quoting it in the value and a key': (token) =>
    Response.json({
      status: 'success',
      message: 'OK',
      message_code: 'api_v1_ok',
      data: { id: token, [token]: 1 },
      meta: { request_id: REQUEST_ID },
    }),
};

/**
 * A stream echoing the token in a `message.error`, an off-schema step, an unknown event (name and data) and
 * the name of an event after the terminal one (which is dropped, and logged).
 */
function failingStream(token: string): Response {
  return new Response(
    sseText([
      ['message.start', { chat_id: CHAT, message_id: 7, request_id: REQUEST_ID }],
      ['message.step', { steps: `Bearer ${token}` }],
      [`x.${token}`, { token }],
      [
        'message.error',
        {
          code: 'upstream_error',
          message: `the provider refused ${token}`,
          retryable: false,
          details: { service: token, request_id: encodeURIComponent(token) },
        },
      ],
      [`late.${token}`, {}],
    ]),
    { headers: { 'content-type': 'text/event-stream' } },
  );
}

/** A client sending `token` to a service answering with `answer`, logging every line it gets. */
function echoing(token: string, answer: (request: Request) => Response) {
  const lines: string[] = [];
  const line = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${level} ${message} ${JSON.stringify(fields)} ${inspect(fields, { depth: Infinity })}`);
  };
  const { fetch } = fakeFetch((request) => answer(request));
  const client = new Client({
    baseUrl: 'https://api.test',
    token,
    fetch,
    maxRetries: 0,
    logger: { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') },
  });
  return { client, lines };
}

/** Every text an error shows: as a string, its message, serialized, inspected (causes, hidden fields). */
function textsOf(error: unknown): string[] {
  expect(error).toBeInstanceOf(ConvoError);
  const shown = error as ConvoError & { data?: unknown };
  return [
    String(shown),
    shown.message,
    JSON.stringify(shown),
    JSON.stringify(shown.data) ?? '',
    inspect(shown, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
  ];
}

function expectNoToken(token: string, texts: string[]): void {
  const all = texts.join('\n');
  for (const form of formsOf(token)) expect(all).not.toContain(form);
}

async function readAll<T>(stream: ReadableStream<T>): Promise<T[]> {
  const chunks: T[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<T>) chunks.push(chunk);
  return chunks;
}

for (const [size, token] of Object.entries(TOKENS)) {
  describe(`5 a token the service echoes is in no output (a ${token.length}-character token, ${size})`, () => {
    it.each(Object.entries(ECHOES))('5 %s', async (_, echo) => {
      const { client, lines } = echoing(token, (request) => echo(tokenOf(request)));
      const error = await client.skills.get(1).catch((e: unknown) => e);
      const texts = textsOf(error);
      expect(texts.join('\n')).toContain('[redacted]');
      expectNoToken(token, [...texts, ...lines]);
    });

    it('5 the 401 error keeps what the service said around the token, and its headers without it', async () => {
      const { client } = echoing(token, (request) => ECHOES[Object.keys(ECHOES)[0]!]!(tokenOf(request)));
      const error = (await client.skills.get(1).catch((e: unknown) => e)) as ApiError;
      expect(error.message).toBe('401 api_v1_unauthorized: the credential [redacted] is not allowed');
      expect(error.data).toEqual({
        echo: '[redacted]',
        '[redacted]': 'as a key',
        nested: [{ authorization: 'Bearer [redacted]' }],
      });
      expect([error.requestId, error.errorDetails?.service]).toEqual(['[redacted]', '[redacted]']);
      expect(error.headers.get('x-echo-authorization')).toBe('Bearer [redacted]');
    });

    it('5 a redirect and a stream answered with another content type quote the header without the token', async () => {
      const { client } = echoing(
        token,
        (request) => new Response('x', { headers: { 'content-type': `text/html; t=${tokenOf(request)}` } }),
      );
      const wrongType = await client.turns
        .stream(CHAT, { content: 'x' })
        .finalTurn()
        .catch((e: unknown) => e);
      expect(wrongType).toBeInstanceOf(ResponseValidationError);
      expect((wrongType as Error).message).toContain('text/html; t=[redacted]');
      const redirected = echoing(token, (request) =>
        ECHOES['a redirect whose Location quotes it']!(tokenOf(request)),
      );
      const redirect = (await redirected.client.skills.get(1).catch((e: unknown) => e)) as RedirectError;
      expect(redirect).toBeInstanceOf(RedirectError);
      expect(redirect.location).toBe('https://elsewhere.test/?t=[redacted]');
      expectNoToken(token, [...textsOf(wrongType), ...textsOf(redirect)]);
    });

    it('5 7 a 422 names the fields the service named, the token masked', async () => {
      const { client } = echoing(token, (request) =>
        ECHOES["a 422 naming the token as a field and in a field's problem"]!(tokenOf(request)),
      );
      const error = await client.skills.get(1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnprocessableEntityError);
      expect((error as Error).message).toBe(
        '422 api_v1_validation_error: [redacted]: must not be [redacted]; description: too long (invalid [redacted])',
      );
    });

    it('6 a message.error echoing the token: the event, the TurnError, the logger lines', async () => {
      const { client, lines } = echoing(token, (request) => failingStream(tokenOf(request)));
      const stream = client.turns.stream(CHAT, { content: 'x' });
      const events: unknown[] = [];
      for await (const event of stream) events.push(event);
      const error = await stream.finalTurn().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TurnError);
      expect((error as TurnError).message).toBe(
        'turn failed with upstream_error: the provider refused [redacted]',
      );
      expect(events).toContainEqual(expect.objectContaining({ type: 'off_schema' }));
      expect(events).toContainEqual({
        type: 'unknown',
        event: 'x.[redacted]',
        data: { token: '[redacted]' },
      });
      expect(lines.join('\n')).toContain('off_schema');
      expect(lines.join('\n')).toContain('late.[redacted]');
      expectNoToken(token, [
        ...textsOf(error),
        JSON.stringify(events),
        inspect(events, { depth: Infinity }),
        ...lines,
      ]);
    });

    it("6 the relay's bytes, and the RelayedTurnError a page rebuilds from them, hold no token", async () => {
      const { client } = echoing(token, (request) => failingStream(tokenOf(request)));
      const bytes = await new Response(client.turns.stream(CHAT, { content: 'x' }).toReadableStream()).text();
      expect(bytes).toContain('event: message.error');
      expect(bytes).toContain('[redacted]');
      const page = RelayedTurnStream.fromReadableStream(new Response(bytes).body!);
      const error = await page.finalTurn().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RelayedTurnError);
      expectNoToken(token, [bytes, ...textsOf(error)]);
    });

    it('6 the UI chunks and metadata of toUIMessageStream and ConvoChatTransport hold no token', async () => {
      const chunks: unknown[] = [];
      for (const answer of [
        failingStream,
        ECHOES['an error body: message, data values and keys, request id, error details, a header']!,
      ]) {
        const { client } = echoing(token, (request) => answer(tokenOf(request)));
        chunks.push(...(await readAll(toUIMessageStream(client.turns.stream(CHAT, { content: 'x' })))));
        const transport = new ConvoChatTransport({ client });
        const sent = await transport.sendMessages({
          trigger: 'submit-message',
          chatId: CHAT,
          messageId: undefined,
          messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'x' }] }],
          abortSignal: undefined,
        });
        chunks.push(...(await readAll(sent)));
      }
      const shown = JSON.stringify(chunks);
      expect(chunks.filter((chunk) => (chunk as { type: string }).type === 'error')).toHaveLength(4);
      expect(shown).toContain('[redacted]');
      expectNoToken(token, [shown]);
    });
  });
}

describe('5 what is not the token is shown as it came', () => {
  it("5 a response header whose name holds the token is left out of the error's headers; the others stay", () => {
    const token = 'x-zq7xk-secret';
    const headers = new Headers({ [token]: '1', 'x-echo': `Bearer ${token}`, 'retry-after': '3' });
    const error = apiFailure(503, 'down', headers, undefined, redactorOf([token])) as ApiError;
    expect([...error.headers]).toEqual([
      ['retry-after', '3'],
      ['x-echo', 'Bearer [redacted]'],
    ]);
    expect(error.retryAfterMs).toBe(3_000);
  });

  it('5 an error that quotes no token is the same text', async () => {
    const { client } = echoing(TOKENS.long, () =>
      Response.json(
        { status: 'error', message: 'no such skill', message_code: 'api_v1_not_found', data: { id: 1 } },
        { status: 404 },
      ),
    );
    const error = (await client.skills.get(1).catch((e: unknown) => e)) as ApiError;
    expect(error.message).toMatch(/^404 api_v1_not_found: no such skill/);
    expect(error.data).toEqual({ id: 1 });
  });
});

describe('5 the logger the client hands its lines to', () => {
  it('5 masks the token in the line and every field, keeps the methods it had and calls them on it', () => {
    const calls: unknown[][] = [];
    const mine = {
      prefix: 'app',
      warn(this: { prefix: string }, ...args: unknown[]) {
        calls.push([this.prefix, ...args]);
      },
    };
    const logger = redactingLogger(mine, redactorOf([TOKENS.long]));
    expect(logger && Object.keys(logger)).toEqual(['warn']);
    logger?.warn?.(`saw ${TOKENS.long}`);
    logger?.warn?.('fields', { reason: `Bearer ${encodeURIComponent(TOKENS.long)}`, n: 1 });
    expect(calls).toEqual([
      ['app', 'saw [redacted]'],
      ['app', 'fields', { reason: 'Bearer [redacted]', n: 1 }],
    ]);
  });

  it('5 no logger stays none, and no token leaves the logger as it is', () => {
    const mine = { warn: () => {} };
    expect(redactingLogger(undefined, redactorOf([TOKENS.long]))).toBeUndefined();
    expect(redactingLogger(mine, NO_REDACTION)).toBe(mine);
  });
});
