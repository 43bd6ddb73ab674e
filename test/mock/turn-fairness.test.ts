import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIRECTIVE_LIMITS, type MockServer, startMockServer } from '../../src/mock/index.js';

// Loose on purpose: a loaded 2-core machine delays any request by tens of ms; a turn that held the event
// loop delayed them by the whole turn (100,000 words: 0.4 s to several s).
const FAIR_MS = 250;

describe('the turn engine yields to other requests, over real HTTP', () => {
  let server: MockServer;
  const headers = { authorization: 'Bearer mock-token', 'content-type': 'application/json' };
  beforeAll(async () => {
    server = await startMockServer({ port: 0 });
  });
  afterAll(() => server.close());

  it(`during the largest synchronous turn (words n=${DIRECTIVE_LIMITS.wordsN}), another client's GET /skills answers within ${FAIR_MS} ms`, async () => {
    // A first request, so that connection set-up is not counted.
    expect((await fetch(`${server.url}/api/v1/skills`, { headers })).status).toBe(200);
    let running = true;
    const turn = fetch(`${server.url}/api/v1/chats/${crypto.randomUUID()}/messages`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({
        content: `[[mock:words n=${DIRECTIVE_LIMITS.wordsN}]]`,
        permission_mode: 'auto',
      }),
    }).then(async (response) => {
      const body = await response.json();
      running = false;
      return [response.status, body.data.content.split(' ').length];
    });
    const latencies: number[] = [];
    while (running) {
      const started = performance.now();
      const response = await fetch(`${server.url}/api/v1/skills`, { headers });
      await response.text();
      latencies.push(performance.now() - started);
      expect(response.status).toBe(200);
    }
    expect(await turn).toEqual([200, DIRECTIVE_LIMITS.wordsN]);
    // Answered while the turn ran, not after it.
    expect(latencies.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...latencies)).toBeLessThan(FAIR_MS);
  }, 60_000);
});
