import { afterEach, describe, expect, it } from 'vitest';
import { AnswerOutcomeUnknownError, type ApiError, Client, type ClientOptions } from '../../src/index.js';
import { startMockServer } from '../../src/mock/index.js';
import { apiError } from '../support/api-error.js';
import { skill } from '../support/fake-fetch.js';
import { nextInteraction } from '../support/interaction-stream.js';
import { failure, json, type Script, scriptedServer, success } from '../support/scripted-server.js';

/**
 * The retry policy's waits and bounds through real HTTP on loopback, with the client's real delays (no
 * `retryDelay` shortcut): each case takes at most about a second.
 */

// "At once": every wait these cases could wrongly take is 20 s or more, so an answer within this bound did
// not wait, however busy the machine (a loaded loopback round trip takes tens of ms, not seconds).
const AT_ONCE_MS = 10_000;

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(script: Script, options: Partial<ClientOptions> = {}) {
  const server = await scriptedServer(script);
  close = server.close;
  const client = new Client({ baseUrl: server.url, token: 'loopback-token', ...options });
  return { client, seen: server.seen };
}

const outage = failure('api_v1_service_unavailable', { retry_action: 'retry' });

describe('429 and Retry-After over loopback HTTP', () => {
  it('7 a GET answered 429 with Retry-After: 1 is retried after one second, and succeeds', async () => {
    const delays: number[] = [];
    const { client, seen } = await serve(
      (_, response, n) =>
        n === 1
          ? json(response, 429, failure('rate_limited'), { 'retry-after': '1' })
          : json(response, 200, success(skill())),
      { onRetry: ({ delayMs }) => delays.push(delayMs) },
    );
    const got = await client.skills.get(1);
    expect(got.id).toBe(1);
    expect(seen).toHaveLength(2);
    // The wait the client chose is the Retry-After, no backoff on top; and it did wait that long.
    expect(delays).toEqual([1_000]);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it('7 Retry-After: 30 on a retryable 503 with timeout 20000 (within maxRetryAfter): the error at once, retryAfterMs on it', async () => {
    const { client, seen } = await serve((_, response) =>
      json(response, 503, outage, { 'retry-after': '30' }),
    );
    const started = performance.now();
    const error = await apiError(client.skills.list({}, { timeout: 20_000 }));
    expect(performance.now() - started).toBeLessThan(AT_ONCE_MS);
    expect(error.status).toBe(503);
    expect(error.retryAfterMs).toBe(30_000);
    expect(seen).toHaveLength(1);
  });

  it('7 a Retry-After above maxRetryAfter (default 60 s) is not honoured: the error at once', async () => {
    const { client, seen } = await serve(
      (_, response) => json(response, 429, failure('rate_limited'), { 'retry-after': '61' }),
      {
        timeout: 120_000,
      },
    );
    const started = performance.now();
    const error = await apiError(client.skills.get(1));
    expect(performance.now() - started).toBeLessThan(AT_ONCE_MS);
    expect(error.retryAfterMs).toBe(61_000);
    expect(seen).toHaveLength(1);
  });

  it('huge, negative, junk and past-date values raise no TimeoutOverflowWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      for (const value of ['1e10', '-5', 'soon', 'Thu, 01 Jan 1970 00:00:00 GMT']) {
        const script: Script = (_, response, n) =>
          n === 1
            ? json(response, 503, outage, { 'retry-after': value })
            : json(response, 200, success(skill()));
        const { client, seen } = await serve(script, { maxRetryAfter: 2 ** 31 - 1 });
        const result = await client.skills.get(1).then(
          () => 'retried',
          (error: unknown) => (error as ApiError).retryAfterMs,
        );
        // 1e10 seconds is refused at once; the others ask for no wait and the backoff alone applies.
        expect(result, value).toBe(value === '1e10' ? 1e13 : 'retried');
        expect(seen, value).toHaveLength(value === '1e10' ? 1 : 2);
        await close?.();
        close = undefined;
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.name)).not.toContain('TimeoutOverflowWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it("7 a load balancer's empty 503 with an HTTP-date Retry-After: ApiError http_503 carrying it, not retried for a write", async () => {
    const { client, seen } = await serve((_, response) =>
      response.writeHead(503, { 'retry-after': new Date(Date.now() + 30_000).toUTCString() }).end(),
    );
    const started = performance.now();
    const error = await apiError(client.skills.create({ name: 'Tone', instructions: 'Be brief.' }));
    expect(performance.now() - started).toBeLessThan(AT_ONCE_MS);
    expect(error.code).toBe('http_503');
    expect(error.retryAfterMs).toBeGreaterThan(28_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(30_000);
    expect(seen).toHaveLength(1);
  });

  it("7: an empty 502 is an ApiError http_502; a create does not repeat it (a gateway's failure may have arrived)", async () => {
    const { client, seen } = await serve((_, response) => response.writeHead(502).end());
    const error = await apiError(client.skills.create({ name: 'Tone', instructions: 'Be brief.' }));
    expect([error.status, error.code, error.retryAfterMs]).toEqual([502, 'http_502', undefined]);
    expect(seen).toHaveLength(1);
  });

  it('an abort during a Retry-After wait ends the call at once with AbortError', async () => {
    const controller = new AbortController();
    // Aborted as the wait starts, whatever the machine's speed (a timer could fire before the 429 came).
    const { client, seen } = await serve(
      (_, response) => json(response, 429, failure('rate_limited'), { 'retry-after': '30' }),
      { onRetry: () => controller.abort() },
    );
    const started = performance.now();
    const error = await client.skills.get(1, { signal: controller.signal }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(performance.now() - started).toBeLessThan(AT_ONCE_MS);
    expect(seen).toHaveLength(1);
  });
});

describe('4.6, 7.5 client corrections over loopback HTTP', () => {
  it('4.6 cancel is idempotent: a cancel that times out is sent again', async () => {
    const chatId = crypto.randomUUID();
    const { client, seen } = await serve((_, response, n) => {
      if (n === 1) return; // no answer: the client's timeout ends the attempt
      json(response, 200, success({ chat_id: chatId, cancelled: true }));
    });
    const result = await client.turns.cancel(chatId, {}, { timeout: 1_500 });
    expect(result).toEqual({ chat_id: chatId, cancelled: true });
    const path = `/api/v1/chats/${chatId}/actions/cancel`;
    expect(seen.map((s) => s.path)).toEqual([path, path]);
  });

  async function pendingTool() {
    const server = await startMockServer({ port: 0 });
    close = server.close;
    const client = new Client({ baseUrl: server.url, token: 'mock-token' });
    const chatId = crypto.randomUUID();
    const stream = client.turns.stream(chatId, { content: 'q [[mock:tool_approval]]' });
    return { server, client, chatId, ...(await nextInteraction(stream)) };
  }

  it('7.5 after its own resend of a lost answer, a 409 api_v1_action_not_pending is an unknown outcome; the stream says it applied', async () => {
    const { server, client, chatId, rest, interaction } = await pendingTool();
    server.mock.faults.add({ route: 'answer', drop: 'before-response' });
    const decisions = interaction.tools.map((tool) => ({ tool_use_id: tool.tool_use_id, approved: true }));
    const error = await client.actions
      .approveTool(chatId, { action_id: interaction.action_id, decisions })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnswerOutcomeUnknownError);
    const types = await rest();
    expect(types).toContain('step'); // the tool ran: the lost send was applied
    expect(types.at(-1)).toBe('completed');
    expect(server.mock.store.interactions()[0]).toMatchObject({ state: 'resolved' });
  });

  it('7.5 the same 409 with no lost send before it (already answered) is thrown', async () => {
    const { client, chatId, rest, interaction } = await pendingTool();
    const decisions = interaction.tools.map((tool) => ({ tool_use_id: tool.tool_use_id, approved: true }));
    await client.actions.approveTool(chatId, { action_id: interaction.action_id, decisions });
    const error = await apiError(
      client.actions.approveTool(chatId, { action_id: interaction.action_id, decisions }),
    );
    expect([error.status, error.code]).toEqual([409, 'api_v1_action_not_pending']);
    expect((await rest()).at(-1)).toBe('completed');
  });
});
