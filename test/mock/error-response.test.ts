import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiError,
  Client,
  ConflictError,
  InternalServerError,
  RateLimitError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { errorResponse as fromMock } from '../../src/mock/index.js';
import { errorResponse } from '../../src/mock/msw.js';
import { ok, skill } from '../support/fake-fetch.js';

/** An integrator's own msw handlers, answering errors built by `errorResponse`. */
const ORIGIN = 'https://own.test';
const server = setupServer();
beforeAll(() => server.listen());
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const CHAT = '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

function client(options: { maxRetries?: number } = {}) {
  return new Client({ baseUrl: ORIGIN, token: 't', retryDelay: { min: 1, max: 2 }, ...options });
}

/** Answers each request with the next reply (the last one repeats), counting them. */
function answering(method: 'get' | 'post', path: string, ...replies: Array<() => Response>) {
  const seen: Request[] = [];
  server.use(
    http[method](`${ORIGIN}/api/v1/${path}`, ({ request }) => {
      seen.push(request);
      return (replies[Math.min(seen.length, replies.length) - 1] as () => Response)();
    }),
  );
  return seen;
}

describe('errorResponse: the contract error body (7) for your own msw handlers', () => {
  it('7 the body is the envelope of section 7, with error_details.retry_action and Retry-After', async () => {
    const response = errorResponse({
      status: 503,
      code: 'api_v1_service_unavailable',
      message: 'down',
      retryAction: 'retry',
      errorDetails: { service: 'core' },
      retryAfter: 1,
      requestId: 'req-1',
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      status: 'error',
      message: 'down',
      message_code: 'api_v1_service_unavailable',
      data: null,
      meta: { request_id: 'req-1', error_details: { service: 'core', retry_action: 'retry' } },
    });
    expect(fromMock).toBe(errorResponse);
  });

  it('7 without options beyond status and code: the message is the code, a request id, no details', async () => {
    const body = await errorResponse({ status: 404, code: 'api_v1_not_found' }).json();
    expect(body).toMatchObject({
      message: 'api_v1_not_found',
      data: null,
      meta: { request_id: expect.any(String) },
    });
    expect(body.meta).not.toHaveProperty('error_details');
  });

  it('typed codes: data takes the shape its code documents, and a body that breaks it is never sent', () => {
    expect(() =>
      // @ts-expect-error api_v1_chat_busy carries { message_id: number }
      errorResponse({ status: 409, code: 'api_v1_chat_busy', data: { message_id: 'seven' } }),
    ).toThrow(/api_v1_chat_busy needs the data the contract gives it: data\.message_id/);
    expect(errorResponse({ status: 502, code: 'a_code_of_a_newer_service', data: [1] }).status).toBe(502);
  });

  it('7.3: errorResponse without the data its code requires throws instead of sending a body the client refuses', async () => {
    expect(() => errorResponse({ status: 409, code: 'api_v1_chat_busy' })).toThrow(
      /errorResponse: api_v1_chat_busy needs the data the contract gives it: data/,
    );
    expect(() => errorResponse({ status: 502, code: 'upstream_error' })).toThrow(/upstream_error needs/);
    // A code whose data the contract names only at some statuses takes none.
    expect(errorResponse({ status: 503, code: 'api_v1_action_result_unknown' }).status).toBe(503);
    expect(errorResponse({ status: 502, code: 'api_v1_core_unavailable' }).status).toBe(502);
    const body = await errorResponse({
      status: 409,
      code: 'api_v1_chat_busy',
      data: { message_id: 3 },
    }).json();
    expect(body.data).toEqual({ message_id: 3 });
  });

  it('a status outside 400 to 599 or a Retry-After that is not whole seconds is refused', () => {
    expect(() => errorResponse({ status: 200, code: 'x' })).toThrow(/400 to 599/);
    expect(() => errorResponse({ status: 503, code: 'x', retryAfter: 1.5 })).toThrow(/whole number/);
  });

  it('7.5 a 503 with retry_action retry is retried after Retry-After, then the call succeeds', async () => {
    const seen = answering(
      'get',
      'skills/1',
      () =>
        errorResponse({
          status: 503,
          code: 'api_v1_service_unavailable',
          retryAction: 'retry',
          retryAfter: 0,
        }),
      () => ok(skill()),
    );
    expect(await client().skills.get(1)).toMatchObject({ id: 1 });
    expect(seen).toHaveLength(2);
  });

  it('7.5 a 503 with retry_action check_status is not resent: an InternalServerError with its code and details', async () => {
    const seen = answering('post', `chats/${CHAT}/actions/respond-plan`, () =>
      errorResponse({ status: 503, code: 'api_v1_action_result_unknown', retryAction: 'check_status' }),
    );
    const error = await client()
      .actions.respondPlan(CHAT, { action_id: 'a', action: 'approve' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({
      code: 'api_v1_action_result_unknown',
      errorDetails: { retry_action: 'check_status' },
    });
    expect(seen).toHaveLength(1);
  });

  it('7.3 a 409 chat busy is a ConflictError whose data is typed by its code', async () => {
    answering('post', `chats/${CHAT}/messages`, () =>
      errorResponse({ status: 409, code: 'api_v1_chat_busy', data: { message_id: 7 }, requestId: 'req-9' }),
    );
    const error = await client()
      .turns.send(CHAT, { content: 'hi' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ApiError).requestId).toBe('req-9');
    expect(
      (error as ApiError).is('api_v1_chat_busy') && (error as ApiError<'api_v1_chat_busy'>).data.message_id,
    ).toBe(7);
  });

  it('7.3 a 422 is an UnprocessableEntityError; a 429 a RateLimitError with retryAfterMs and headers', async () => {
    answering('post', 'chats', () =>
      errorResponse({
        status: 422,
        code: 'api_v1_validation_error',
        data: [{ field: 'name', message: 'too long' }],
      }),
    );
    const refused = await client()
      .chats.create({})
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UnprocessableEntityError);
    expect((refused as ApiError).data).toEqual([{ field: 'name', message: 'too long' }]);

    answering('get', 'skills/2', () =>
      errorResponse({ status: 429, code: 'api_v1_rate_limited', retryAfter: 2 }),
    );
    const limited = (await client({ maxRetries: 0 })
      .skills.get(2)
      .catch((e: unknown) => e)) as RateLimitError;
    expect(limited).toBeInstanceOf(RateLimitError);
    expect([limited.retryAfterMs, limited.headers.get('retry-after')]).toEqual([2_000, '2']);
  });

  it('an msw HttpResponse of your own works the same: the helper only spares writing the envelope', async () => {
    answering('get', 'skills/3', () =>
      HttpResponse.json({ message_code: 'api_v1_not_found' }, { status: 404 }),
    );
    await expect(client().skills.get(3)).rejects.toMatchObject({ status: 404, code: 'api_v1_not_found' });
  });
});
