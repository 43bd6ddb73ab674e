import { describe, expect, it } from 'vitest';
import { DIRECTIVE_LIMITS } from '../../src/mock/index.js';
import { useMockServer } from '../support/mock-server.js';

// Loose on purpose: on a loaded 2-core machine the OS alone delays a request by tens, at times hundreds,
// of ms. A turn that held the event loop delayed them by the whole turn (100,000 words: 0.4 s alone,
// seconds beside other test files), and no request was answered while it ran.
const MEDIAN_MS = 250;
const WORST_MS = 1000;

describe('the turn engine yields to other requests, over real HTTP', () => {
  const server = useMockServer();
  const headers = { authorization: 'Bearer mock-token', 'content-type': 'application/json' };

  it(`during the largest synchronous turn (words n=${DIRECTIVE_LIMITS.wordsN}), another client's GET /skills is answered while it runs (median under ${MEDIAN_MS} ms, none over ${WORST_MS} ms)`, async () => {
    // A first request, so that connection set-up is not counted.
    expect((await fetch(`${server.url}/api/v1/skills`, { headers })).status).toBe(200);
    let running = true;
    const started = performance.now();
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
    let midTurn = 0;
    while (running) {
      const sent = performance.now();
      const response = await fetch(`${server.url}/api/v1/skills`, { headers });
      await response.text();
      latencies.push(performance.now() - sent);
      expect(response.status).toBe(200);
      // Answered in the middle of the turn: some of its words written, not all.
      const [live] = server.mock.store.turns();
      if (live?.status === 'pending' && live.content !== '') midTurn += 1;
    }
    expect(await turn).toEqual([200, DIRECTIVE_LIMITS.wordsN]);
    const turnMs = performance.now() - started;
    const sorted = [...latencies].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? Number.POSITIVE_INFINITY;
    const max = sorted.at(-1) ?? Number.POSITIVE_INFINITY;
    const figures = `turn ${turnMs.toFixed(0)} ms, ${sorted.length} requests (${midTurn} mid-turn), median ${median.toFixed(1)} ms, max ${max.toFixed(1)} ms`;
    expect(midTurn, figures).toBeGreaterThanOrEqual(10);
    expect(median, figures).toBeLessThan(MEDIAN_MS);
    expect(max, figures).toBeLessThan(WORST_MS);
  }, 60_000);
});
