import { describe, expect, it } from 'vitest';
import { apiFailure, isGatewayFailure } from '../../src/http/failures.js';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { api } from '../support/api-error.js';

const NGINX_503 = `<html>\r
<head><title>503 Service Temporarily Unavailable</title></head>\r
<body>\r
<center><h1>503 Service Temporarily Unavailable</h1></center>\r
<hr><center>nginx</center>\r
</body>\r
</html>\r
`;

const NO_HEADERS = new Headers();
const PAGE = " (an HTML page, not the service's error body: a proxy or gateway answered)";

describe("7: a proxy's or load balancer's own answer is an ApiError with its status and no contract code", () => {
  it("7: nginx's 503 page is an InternalServerError http_503 named by its title, with its Retry-After", () => {
    const error = apiFailure(503, NGINX_503, new Headers({ 'retry-after': '0' })) as ApiError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect([error.status, error.code, error.retryAfterMs, error.requestId]).toEqual([
      503,
      'http_503',
      0,
      undefined,
    ]);
    expect(error.message).toBe(`503 http_503: 503 Service Temporarily Unavailable${PAGE}`);
    expect(isGatewayFailure(error)).toBe(true);
  });

  it('7: a page with a doctype, a title with attributes and spaces, in any case', () => {
    const page = '  <!DOCTYPE html><HTML><head><TITLE lang="en">  Bad gateway </TITLE></head></HTML>';
    expect(apiFailure(502, page, NO_HEADERS).message).toBe(`502 http_502: Bad gateway${PAGE}`);
    const spaced = '<!doctype \n html>\n<title>Gateway Timeout</title>';
    expect(apiFailure(504, spaced, NO_HEADERS).message).toBe(`504 http_504: Gateway Timeout${PAGE}`);
  });

  it('7: a page without a title, or with an empty one, is called an HTML page', () => {
    expect(apiFailure(504, '<html><body>timeout</body></html>', NO_HEADERS).message).toBe(
      `504 http_504: an HTML page${PAGE}`,
    );
    expect(apiFailure(504, '<html><title> </title></html>', NO_HEADERS).message).toBe(
      `504 http_504: an HTML page${PAGE}`,
    );
  });

  it('7: a title is looked for in the head of the page only, and cut at 200 characters', () => {
    const late = `<html>${' '.repeat(5_000)}<title>Late</title></html>`;
    expect(apiFailure(502, late, NO_HEADERS).message).toBe(`502 http_502: an HTML page${PAGE}`);
    const long = `<html><title>${'t'.repeat(300)}</title></html>`;
    expect(apiFailure(502, long, NO_HEADERS).message).toBe(`502 http_502: ${'t'.repeat(200)}${PAGE}`);
  });

  it('7: text that is not HTML, even starting with <, is kept as text', () => {
    const xml = '<?xml version="1.0"?><Error>SlowDown</Error>';
    expect(apiFailure(503, xml, NO_HEADERS).message).toBe(`503 http_503: ${xml}`);
    expect(apiFailure(503, '<htmlish>', NO_HEADERS).message).toBe('503 http_503: <htmlish>');
    const quoted = 'upstream said: <html><title>Oops</title></html>';
    expect(apiFailure(503, quoted, NO_HEADERS).message).toBe(`503 http_503: ${quoted}`);
    expect(apiFailure(503, 'upstream connect error', NO_HEADERS).message).toBe(
      '503 http_503: upstream connect error',
    );
  });

  it("7: an API gateway's own JSON at 408, 502, 503 or 504 is a bare ApiError carrying that JSON", () => {
    for (const status of [408, 502, 503, 504]) {
      const error = apiFailure(status, { message: 'Endpoint request timed out' }, NO_HEADERS) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.code).toBe(`http_${status}`);
      expect(error.message).toBe(`${status} http_${status}: {"message":"Endpoint request timed out"}`);
      expect(isGatewayFailure(error)).toBe(true);
    }
    const long = apiFailure(502, { message: 'x'.repeat(300) }, NO_HEADERS);
    expect(long.message).toBe(`502 http_502: {"message":"${'x'.repeat(188)}`);
  });

  it('7: JSON with a message_code that breaks the contract is a ResponseValidationError', () => {
    expect(apiFailure(503, { message_code: 7 }, NO_HEADERS)).toBeInstanceOf(ResponseValidationError);
    expect(apiFailure(422, { message_code: 'c', message: 5 }, NO_HEADERS)).toBeInstanceOf(
      ResponseValidationError,
    );
  });

  it('7: JSON without a message_code is a bare ApiError of its status, at any status, gateway or not', () => {
    const cases: [number, unknown, string][] = [
      [500, { message: 'Internal server error' }, '{"message":"Internal server error"}'],
      [429, { message: 'slow down' }, '{"message":"slow down"}'],
      [502, null, 'null'],
      [502, 7, '7'],
      [400, [1], '[1]'],
    ];
    for (const [status, body, shown] of cases) {
      const error = apiFailure(status, body, NO_HEADERS) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect([error.status, error.code, error.message]).toEqual([
        status,
        `http_${status}`,
        `${status} http_${status}: ${shown}`,
      ]);
    }
    expect(isGatewayFailure(apiFailure(500, { message: 'x' }, NO_HEADERS) as ApiError)).toBe(false);
  });

  it('7: an empty body at a gateway status is bare too', () => {
    const error = apiFailure(408, undefined, NO_HEADERS) as ApiError;
    expect([error.status, error.code, error.message]).toEqual([
      408,
      'http_408',
      '408 http_408: the response had no error body',
    ]);
    expect(apiFailure(502, '', NO_HEADERS).message).toBe('502 http_502: the response had no error body');
  });
});

describe('7: which ApiError is a gateway failure', () => {
  it.each([
    ['a bare 408', api(408, 'http_408'), true],
    ['a bare 502', api(502, 'http_502'), true],
    ['a bare 503', api(503, 'http_503'), true],
    ['a bare 504', api(504, 'http_504'), true],
    ['a bare 500', api(500, 'http_500'), false],
    ['a bare 501', api(501, 'http_501'), false],
    ['a bare 505', api(505, 'http_505'), false],
    ['a bare 407', api(407, 'http_407'), false],
    ['a bare 409', api(409, 'http_409'), false],
    ['a bare 429', api(429, 'http_429'), false],
    ['a 503 with a contract code', api(503, 'api_v1_service_unavailable'), false],
    ['a 502 with the code of another status', api(502, 'http_503'), false],
  ])('%s -> %s', (_, error, gateway) => {
    expect(isGatewayFailure(error)).toBe(gateway);
  });
});

describe('7: an answer without the contract body is the ApiError of its status, named by what it says', () => {
  it("7: a gateway's 500 problem+json is an InternalServerError http_500 named by its title and detail", () => {
    const body = { type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'db down' };
    const error = apiFailure(500, body, NO_HEADERS) as ApiError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect([error.status, error.code, error.message]).toEqual([
      500,
      'http_500',
      '500 http_500: Internal Server Error: db down',
    ]);
    expect(error.data).toEqual(body);
    expect(isGatewayFailure(error)).toBe(false);
  });

  it('7: problem details with only a title, or only a detail, are named by that one', () => {
    expect(apiFailure(503, { title: 'Unavailable', detail: '' }, NO_HEADERS).message).toBe(
      '503 http_503: Unavailable',
    );
    expect(apiFailure(504, { detail: 'upstream timed out', title: 5 }, NO_HEADERS).message).toBe(
      '504 http_504: upstream timed out',
    );
  });

  it('7: a 4xx without the contract body is the ApiError class of its status', () => {
    const cases: [number, unknown, new (...args: never[]) => ApiError, string][] = [
      [400, { title: 'Bad Request' }, BadRequestError, 'Bad Request'],
      [401, '<html><title>Sign in</title></html>', AuthenticationError, `Sign in${PAGE}`],
      [403, 'Forbidden', PermissionDeniedError, 'Forbidden'],
      [413, { title: 'Payload Too Large' }, ApiError, 'Payload Too Large'],
      [422, { detail: 'unprocessable' }, UnprocessableEntityError, 'unprocessable'],
      [429, 'Too Many Requests', RateLimitError, 'Too Many Requests'],
    ];
    for (const [status, body, Class, text] of cases) {
      const error = apiFailure(status, body, NO_HEADERS) as ApiError;
      expect(error).toBeInstanceOf(Class);
      expect([error.status, error.code, error.message]).toEqual([
        status,
        `http_${status}`,
        `${status} http_${status}: ${text}`,
      ]);
    }
  });

  it('7: a JSON body is kept as data; text, an HTML page or no body leave data undefined', () => {
    const data = (body: unknown) => (apiFailure(502, body, NO_HEADERS) as ApiError).data;
    expect(data({ title: 'x', n: [1] })).toEqual({ title: 'x', n: [1] });
    expect(data(null)).toBeNull();
    for (const body of ['text', NGINX_503, '', undefined, 7]) expect(data(body)).toBeUndefined();
  });

  it('7: what a bare body says is bounded and has no control characters (no forged log line, no escape)', () => {
    const forged = '\u001b[31mdown\u001b[0m\r\n[convo-sdk] fake line\u0007';
    expect(apiFailure(500, forged, NO_HEADERS).message).toBe(
      '500 http_500: [31mdown [0m [convo-sdk] fake line',
    );
    expect(apiFailure(500, { title: `a\nb`, detail: 'y'.repeat(300) }, NO_HEADERS).message).toBe(
      `500 http_500: a b: ${'y'.repeat(200)}`,
    );
    const page = `<html><title>\u0000x${'t'.repeat(300)}</title></html>`;
    expect(apiFailure(502, page, NO_HEADERS).message).toBe(`502 http_502: x${'t'.repeat(199)}${PAGE}`);
  });
});
