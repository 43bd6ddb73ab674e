import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { plainIssues } from '../../src/contract/issues.js';
import { apiFailure, fetchFailure, schemaFailure } from '../../src/http/failures.js';
import * as errors from '../../src/index.js';
import {
  AbortError,
  ApiError,
  ConnectionError,
  ConvoError,
  ResponseValidationError,
  TimeoutError,
} from '../../src/index.js';

const NO_HEADERS = new Headers();

describe('what fetch threw, as the SDK error classes', () => {
  it('an SDK error passes through as it is', () => {
    const own = new ConvoError('own');
    expect(fetchFailure(own, AbortSignal.abort(), 5)).toBe(own);
  });

  it("the caller's abort wins, with its reason as the cause", () => {
    const controller = new AbortController();
    controller.abort('left');
    const error = fetchFailure(new Error('x'), controller.signal, 5);
    expect(error).toBeInstanceOf(AbortError);
    expect(error.message).toBe('the request was aborted by its signal');
    expect(error.cause).toBe('left');
  });

  it("the timeout's own abort is a TimeoutError naming the timeout", () => {
    const thrown = new DOMException('no response within 250 ms', 'TimeoutError');
    const error = fetchFailure(thrown, new AbortController().signal, 250);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe('no response within 250 ms');
  });

  it('anything else is a ConnectionError keeping only the low-level cause (the wrapper may hold the request)', () => {
    const low = new Error('ECONNREFUSED');
    const error = fetchFailure(new TypeError('fetch failed', { cause: low }), undefined, 5);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe('the connection failed: ECONNREFUSED');
    expect(error.cause).toBe(low);
  });

  it('an error without an Error cause is its own cause; a thrown non-error is shown as text', () => {
    const plain = new Error('socket hang up', { cause: 'text' });
    const error = fetchFailure(plain, undefined, 5);
    expect(error.message).toBe('the connection failed: socket hang up');
    expect(error.cause).toBe(plain);
    const odd = fetchFailure('boom', undefined, 5);
    expect(odd).toBeInstanceOf(ConnectionError);
    expect(odd.message).toBe('the connection failed: boom');
    expect(odd.cause).toBe('boom');
  });
});

describe('7 a non-2xx response as an ApiError', () => {
  it('7 the body names code, message, data, request id and details; Retry-After is read', () => {
    const error = apiFailure(
      503,
      {
        status: 'error',
        message: 'down',
        message_code: 'api_v1_service_unavailable',
        data: { a: 1 },
        meta: { request_id: 'req-1', error_details: { retry_action: 'retry' } },
      },
      new Headers({ 'retry-after': '2', 'x-request-id': 'req-1' }),
    ) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('503 api_v1_service_unavailable: down');
    expect([error.status, error.code, error.data, error.requestId]).toEqual([
      503,
      'api_v1_service_unavailable',
      { a: 1 },
      'req-1',
    ]);
    expect(error.errorDetails).toEqual({ retry_action: 'retry' });
    expect(error.retryAfterMs).toBe(2_000);
    expect(error.headers.get('x-request-id')).toBe('req-1');
  });

  it('7.5 a code whose right reaction is not obvious carries advice; a body without message uses the code', () => {
    const advised = apiFailure(409, { message_code: 'api_v1_action_not_pending', message: 'no' }, NO_HEADERS);
    expect(advised.message).toBe(
      '409 api_v1_action_not_pending: no (already answered, claimed by another request, or of unknown outcome: do not retry)',
    );
    const bare = apiFailure(404, { message_code: 'api_v1_not_found' }, NO_HEADERS) as ApiError;
    expect(bare.message).toBe('404 api_v1_not_found: api_v1_not_found');
    expect([bare.requestId, bare.errorDetails, bare.retryAfterMs]).toEqual([undefined, undefined, undefined]);
    const advisedBare = apiFailure(409, { message_code: 'api_v1_turn_in_progress' }, NO_HEADERS);
    expect(advisedBare.message).toBe(
      "409 api_v1_turn_in_progress: api_v1_turn_in_progress (the key's turn is still running: repeat with the same key later)",
    );
  });

  it.each([
    ['api_v1_action_result_unknown', 'do not resend'],
    ['api_v1_action_not_pending', 'do not retry'],
    ['api_v1_action_not_found', 'belongs to another credential'],
    ['api_v1_turn_in_progress', 'repeat with the same key later'],
    ['api_v1_chat_busy', 'wait for it or cancel it'],
  ])('7 %s carries its advice', (code, advice) => {
    const data = code === 'api_v1_chat_busy' ? { message_id: 4 } : null;
    expect(apiFailure(409, { message_code: code, message: 'm', data }, NO_HEADERS).message).toMatch(
      new RegExp(`^409 ${code}: m \\(.*${advice}.*\\)$`),
    );
  });

  it('an empty body (a load balancer) is an ApiError http_<status>, with its Retry-After', () => {
    const error = apiFailure(503, undefined, new Headers({ 'retry-after': '7' })) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('http_503');
    expect(error.message).toBe('503 http_503: the response had no error body');
    expect([error.data, error.requestId, error.errorDetails, error.retryAfterMs]).toEqual([
      undefined,
      undefined,
      undefined,
      7_000,
    ]);
    expect(error.headers.get('retry-after')).toBe('7');
  });

  it.each([
    [400, 'BadRequestError'],
    [401, 'AuthenticationError'],
    [403, 'PermissionDeniedError'],
    [404, 'NotFoundError'],
    [409, 'ConflictError'],
    [422, 'UnprocessableEntityError'],
    [429, 'RateLimitError'],
    [500, 'InternalServerError'],
    [503, 'InternalServerError'],
    [418, 'ApiError'],
  ])('7 a %i is a %s, an ApiError and a ConvoError', (status, name) => {
    const error = apiFailure(status, { message_code: 'c' }, NO_HEADERS);
    expect(error.constructor.name).toBe(name);
    expect(error.name).toBe(name);
    expect(error).toBeInstanceOf((errors as unknown as Record<string, typeof ApiError>)[name]!);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(ConvoError);
  });

  it('7.3 a 400 is no other class of status: instanceof of the existing classes stays false', () => {
    const error = apiFailure(400, { message_code: 'api_v1_idempotency_key_required' }, NO_HEADERS);
    for (const other of [errors.AuthenticationError, errors.ConflictError, errors.UnprocessableEntityError])
      expect(error).not.toBeInstanceOf(other);
    expect(apiFailure(422, { message_code: 'api_v1_content_too_long' }, NO_HEADERS)).not.toBeInstanceOf(
      errors.BadRequestError,
    );
  });

  it('a text body is kept, cut at 200 characters; an empty text is no body', () => {
    const error = apiFailure(502, `Bad gateway ${'x'.repeat(300)}`, NO_HEADERS);
    expect(error.message).toBe(`502 http_502: Bad gateway ${'x'.repeat(188)}`);
    expect(apiFailure(502, '', NO_HEADERS).message).toBe('502 http_502: the response had no error body');
  });

  it('a JSON body with a message_code that breaks the contract is a ResponseValidationError with the status', () => {
    const error = apiFailure(500, { message_code: 7 }, NO_HEADERS) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect([error.status, error.path]).toEqual([500, 'message_code']);
  });

  it('7 JSON without a message_code (an array, a number) is the InternalServerError of a 500', () => {
    for (const [body, shown] of [
      [[1], '[1]'],
      [42, '42'],
    ] as const) {
      const error = apiFailure(500, body, NO_HEADERS) as ApiError;
      expect(error).toBeInstanceOf(errors.InternalServerError);
      expect([error.status, error.code, error.message]).toEqual([500, 'http_500', `500 http_500: ${shown}`]);
    }
  });
});

describe('a response off the contract as a ResponseValidationError', () => {
  const schema = z.object({ items: z.array(z.object({ id: z.number() })) });
  const issues = (value: unknown) => {
    const result = schema.safeParse(value);
    if (result.success) throw new Error('expected a failure');
    return result.error;
  };

  it('names the first mismatching path below the prefix, and keeps the body and status', () => {
    const body = { items: [{ id: 'one' }] };
    const error = schemaFailure(issues(body), body, 200, 'data') as ResponseValidationError;
    expect(error.path).toBe('data.items.0.id');
    expect(error.body).toBe(body);
    expect(error.status).toBe(200);
    const [issue] = plainIssues(issues(body).issues);
    expect(error.message).toBe(`response does not match the contract at data.items.0.id: ${issue!.message}`);
  });

  it('a whole-body mismatch names only the prefix, or the root without one', () => {
    expect((schemaFailure(issues(5), 5, 200, 'data') as ResponseValidationError).path).toBe('data');
    const root = schemaFailure(issues(5), 5, 200) as ResponseValidationError;
    expect(root.path).toBe('');
    expect(root.message).toMatch(/^response does not match the contract at \(root\): /);
  });
});

describe('7 a 422 names the fields the service named', () => {
  const invalid = (data: unknown, said: { message?: string } = { message: 'The given data was invalid.' }) =>
    apiFailure(422, { ...said, message_code: 'api_v1_validation_error', data }, NO_HEADERS);

  it('7 each field with its problem, then what the service said', () => {
    expect(invalid([{ field: 'description', message: 'too long', limit: 500 }]).message).toBe(
      '422 api_v1_validation_error: description: too long (The given data was invalid.)',
    );
    expect(invalid([{ field: 'name', message: 'is required' }, { field: 'icon' }], {}).message).toBe(
      '422 api_v1_validation_error: name: is required; icon',
    );
  });

  it('7 at most five fields, each name and problem cut at 100 characters, without control characters', () => {
    const five = Array.from({ length: 5 }, (_, i) => ({ field: `f${i}`, message: 'bad' }));
    expect(invalid(five).message).toBe(
      '422 api_v1_validation_error: f0: bad; f1: bad; f2: bad; f3: bad; f4: bad (The given data was invalid.)',
    );
    const many = Array.from({ length: 8 }, (_, i) => ({ field: `f${i}`, message: 'bad' }));
    expect(invalid(many).message).toBe(
      '422 api_v1_validation_error: f0: bad; f1: bad; f2: bad; f3: bad; f4: bad (and 3 more) (The given data was invalid.)',
    );
    const long = invalid([{ field: `a\n${'b'.repeat(200)}`, message: 'c'.repeat(200) }]).message;
    expect(long).toBe(
      `422 api_v1_validation_error: a ${'b'.repeat(98)}: ${'c'.repeat(100)} (The given data was invalid.)`,
    );
  });

  it('7 data naming no field (prompt_refs_invalid groups, an object) leaves the message as the service wrote it', () => {
    for (const data of [[{ skills: [3] }], { field: 'x', message: 'y' }, null, [null, 'x', { field: 5 }]])
      expect(invalid(data).message).toBe('422 api_v1_validation_error: The given data was invalid.');
  });

  it('7 only a 422 names fields: another status with the same data is as the service wrote it', () => {
    const error = apiFailure(
      400,
      { message: 'bad', message_code: 'c', data: [{ field: 'a', message: 'b' }] },
      NO_HEADERS,
    );
    expect(error.message).toBe('400 c: bad');
  });
});

describe('5, 7: a code whose data the contract shapes narrows to a data that is there', () => {
  const body = (code: string, data?: unknown) => ({
    status: 'error',
    message: 'm',
    message_code: code,
    ...(data === undefined ? {} : { data }),
  });

  it.each([
    [409, 'api_v1_chat_busy', null],
    [409, 'api_v1_chat_busy', undefined],
    [409, 'api_v1_chat_busy', { message_id: 'x' }],
    [403, 'api_token_scope_not_allowed', {}],
    [502, 'upstream_error', { chat_id: 'not-a-uuid', message_id: 1 }],
    [504, 'turn_timeout', null],
    [409, 'api_v1_core_unavailable', { code: 'something_else' }],
  ])('a %i %s whose data is %j is a ResponseValidationError at data', (status, code, data) => {
    const error = apiFailure(status, body(code, data), NO_HEADERS);
    expect(error).toBeInstanceOf(errors.ResponseValidationError);
    expect((error as errors.ResponseValidationError).path).toMatch(/^data/);
  });

  it('a body with the data its code has narrows; error.data.message_id is there, as docs/client.md reads it', () => {
    const error = apiFailure(409, body('api_v1_chat_busy', { message_id: 4 }), NO_HEADERS) as errors.ApiError;
    if (!error.is('api_v1_chat_busy')) throw error;
    expect(error.data.message_id).toBe(4);
  });

  it('7.5, 7.6: where the contract names data at some statuses only, none is needed', () => {
    for (const [status, code] of [
      [503, 'api_v1_action_result_unknown'],
      [502, 'api_v1_core_unavailable'],
    ] as const) {
      const error = apiFailure(status, body(code), NO_HEADERS) as errors.ApiError;
      expect(error, code).toBeInstanceOf(errors.ApiError);
      if (error.is('api_v1_action_result_unknown')) expect(error.data?.upstream_status).toBeUndefined();
    }
  });

  it('a mock code and a code the contract gives no data shape are not checked', () => {
    expect(apiFailure(422, body('api_v1_validation_error', { errors: {} }), NO_HEADERS)).toBeInstanceOf(
      errors.UnprocessableEntityError,
    );
    expect(apiFailure(409, body('a_newer_code', 5), NO_HEADERS)).toBeInstanceOf(errors.ConflictError);
  });
});
