import { describe, expect, it } from 'vitest';
import { DIRECTIVE_LIMITS } from '../../src/mock/index.js';
import { useMockServer } from '../support/mock-server.js';

// Measured in the turn's own progress, not in ms: a machine 10x slower (or busy with other work) slows the
// turn and the requests alike. A turn that held the event loop answered no request until it ended (each
// would have waited for the whole turn); one that yields answers each within a few slices of its work.
const MEDIAN_SHARE = 0.05;
const WORST_SHARE = 0.25;

describe('the turn engine yields to other requests, over real HTTP', () => {
  const server = useMockServer();
  const headers = { authorization: 'Bearer mock-token', 'content-type': 'application/json' };
  // How much of the answer the running turn has written so far.
  const written = () => server.mock.store.turns()[0]?.content.length ?? 0;

  it(`during the largest synchronous turn (words n=${DIRECTIVE_LIMITS.wordsN}), another client's GET /skills is answered while it runs (the turn writes a median under ${MEDIAN_SHARE * 100}% and never ${WORST_SHARE * 100}% of its answer while one waits)`, async () => {
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
    const waits: number[] = [];
    let midTurn = 0;
    while (running) {
      const before = written();
      const response = await fetch(`${server.url}/api/v1/skills`, { headers });
      await response.text();
      waits.push(written() - before);
      expect(response.status).toBe(200);
      // Answered in the middle of the turn: some of its words written, not all.
      const [live] = server.mock.store.turns();
      if (live?.status === 'pending' && live.content !== '') midTurn += 1;
    }
    expect(await turn).toEqual([200, DIRECTIVE_LIMITS.wordsN]);
    const total = written();
    const shares = waits.map((chars) => chars / total).sort((a, b) => a - b);
    const median = shares[Math.floor(shares.length / 2)] ?? 1;
    const worst = shares.at(-1) ?? 1;
    const figures = `${shares.length} requests (${midTurn} mid-turn), median ${(median * 100).toFixed(2)}%, worst ${(worst * 100).toFixed(2)}% of the answer written while one waited`;
    expect(midTurn, figures).toBeGreaterThanOrEqual(10);
    expect(median, figures).toBeLessThan(MEDIAN_SHARE);
    expect(worst, figures).toBeLessThan(WORST_SHARE);
  }, 120_000);
});
