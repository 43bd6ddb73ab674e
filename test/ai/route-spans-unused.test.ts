import { describe, expect, it } from 'vitest';
import { serverSpan } from '../../src/ai/route-spans.js';

// With no tracer provider registered, the route answers as it would without telemetry: the same response.
describe('serverSpan without a provider', () => {
  it('hands back the response itself, body unwrapped', async () => {
    const response = new Response('ok');
    let calls = 0;
    const got = await serverSpan(
      'send',
      new Request('https://app.example/api/chat', { method: 'POST' }),
      async () => {
        calls++;
        return response;
      },
    );
    expect(got).toBe(response);
    expect(calls).toBe(1);
  });
});
