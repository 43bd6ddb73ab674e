import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { Client } from '../../src/index.js';
import { fail, fakeFetch, ok, skill } from '../support/fake-fetch.js';
import { useOtel } from '../telemetry/otel.js';

/**
 * The CLIENT span `Transport.request` wraps a call in (`http/call-span.ts` `inSpan`), through a fake fetch:
 * its name, URL with the query, status, resends, the trace context on every attempt, and its end.
 */

const otel = useOtel();

function client(fetch: ReturnType<typeof fakeFetch>['fetch']) {
  return new Client({ baseUrl: 'https://api.test', token: 't', fetch, retryDelay: { min: 1, max: 2 } });
}

describe("a call's span", () => {
  it('is named for the endpoint, holds the URL with its query and the status, and ends OK', async () => {
    const { fetch, requests } = fakeFetch(ok([skill()], { page: 1, size: 5, total: 1 }));
    await client(fetch).skills.list({ page: 1, size: 5 });
    const span = otel.span('skills.list');
    expect(span.attributes['url.full']).toBe('https://api.test/api/v1/skills?page=1&size=5');
    expect(span.attributes['http.response.status_code']).toBe(200);
    expect(span.attributes['http.request.resend_count']).toBeUndefined();
    expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(requests[0]?.headers.get('traceparent')).toContain(span.spanContext().traceId);
  });

  it('counts a resend, each attempt with the trace context, the status of the answer that came', async () => {
    const { fetch, requests } = fakeFetch(new TypeError('fetch failed'), ok(skill()));
    await client(fetch).skills.get(1);
    const span = otel.span('skills.get');
    expect(span.attributes['url.full']).toBe('https://api.test/api/v1/skills/1');
    expect(span.attributes['http.request.resend_count']).toBe(1);
    expect(span.attributes['http.response.status_code']).toBe(200);
    expect(requests.map((r) => r.headers.get('traceparent')?.includes(span.spanContext().traceId))).toEqual([
      true,
      true,
    ]);
  });

  it('ends with the error of a failed call, status ERROR, and no status of an answer it never got to use', async () => {
    const { fetch } = fakeFetch(fail(404, 'api_v1_not_found'));
    await expect(client(fetch).skills.get(1)).rejects.toThrow();
    const span = otel.span('skills.get');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBeDefined();
  });
});
