import { describe, expect, it } from 'vitest';
import { queryString, requestHeaders, serialize } from '../../src/http/request-parts.js';
import { ValidationError } from '../../src/index.js';

/** What a call sends, made before anything is sent (`http/request-parts.ts`). */
describe('the parts of a request', () => {
  it('a query of the defined values, or nothing at all', () => {
    expect(queryString({ page: 2, size: undefined, is_favorite: true })).toBe('?page=2&is_favorite=true');
    expect(queryString({ page: undefined })).toBe('');
    expect(queryString({})).toBe('');
    expect(queryString(undefined)).toBe('');
  });

  it('a body JSON cannot hold is a ValidationError of (body), before anything is sent', () => {
    expect(serialize({ a: 1 })).toBe('{"a":1}');
    expect(serialize(undefined)).toBeUndefined();
    const error = (() => {
      try {
        return serialize({ n: 1n });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: '(body)' });
    expect((error as Error).message).toContain('must be serializable as JSON (');
  });

  it('the SDK’s Accept and Content-Type, the call’s own headers over them, each checked', () => {
    expect(requestHeaders('application/json', false, undefined, undefined)).toEqual({});
    expect(requestHeaders('text/event-stream', true, undefined, undefined)).toEqual({
      accept: 'text/event-stream',
      'content-type': 'application/json',
    });
    const merged = requestHeaders(
      'application/json',
      true,
      { 'idempotency-key': 'k' },
      { 'Content-Type': 'x' },
    );
    expect(Object.fromEntries(merged as Headers)).toEqual({ 'content-type': 'x', 'idempotency-key': 'k' });
    const refused = (own: Record<string, string>) => {
      try {
        requestHeaders('application/json', false, own, undefined);
      } catch (e) {
        return e as ValidationError;
      }
    };
    expect(refused({ 'idempotency-key': 'a\r\nb' })?.field).toMatch(/^idempotencyKey/);
    expect(refused({ traceparent: 'a\r\nb' })?.field).toMatch(/^headers/);
  });
});
