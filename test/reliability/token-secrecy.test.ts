import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AbortError,
  ApiError,
  Client,
  ConnectionError,
  ConvoError,
  InteractionExpiredError,
  ResponseValidationError,
  StreamInterruptedError,
  TimeoutError,
  TurnError,
  ValidationError,
} from '../../src/index.js';
import { startMockServer } from '../../src/mock/index.js';
import { ok } from '../support/fake-fetch.js';
import { MOCK_TARGETS, type MockTarget } from '../support/mock-targets.js';

/**
 * Section 5: the credential travels in the Authorization header and nowhere else. Every error class, every
 * logger line, every `onRetry` notice, and util.inspect / JSON.stringify of the client, its namespaces,
 * errors (with their causes), streams, interactions, pages and results are captured, along with all
 * console output and the mock's recorded state; the token appears in none of them.
 */

const TOKEN = 'tok_live_SECRET_7f3a9c41d2';
const WRONG = 'tok_wrong_SECRET_2b8d1e55aa';

/** Everything seen, as text. */
class Seen {
  readonly texts: string[] = [];
  readonly classes = new Set<string>();

  add(value: unknown): void {
    if (value instanceof Error) {
      this.classes.add(value.constructor.name);
      this.texts.push(String(value), value.message, value.stack ?? '');
    }
    this.texts.push(inspect(value, { showHidden: true, depth: Number.POSITIVE_INFINITY, getters: true }));
    try {
      this.texts.push(JSON.stringify(value) ?? '');
    } catch {}
  }

  /** Runs `work`; keeps its result or its error. */
  async run(work: () => unknown): Promise<unknown> {
    try {
      const value = await work();
      this.add(value);
      return value;
    } catch (error) {
      this.add(error);
      return error;
    }
  }

  expectNoToken(): void {
    const all = this.texts.join('\n');
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(WRONG);
    // Nor a recognisable part of it.
    expect(all).not.toContain('SECRET_');
  }
}

function logger(seen: Seen) {
  const line = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    seen.texts.push(`${level} ${message}`);
    seen.add(fields);
  };
  return { debug: line('debug'), warn: line('warn') };
}

afterEach(() => vi.restoreAllMocks());

for (const { name, start } of MOCK_TARGETS) {
  describe(`5 the token never leaks, via ${name}`, () => {
    it('not in any error, log line, retry notice, inspected or serialized object, console output or mock record', async () => {
      const target: MockTarget = await start({ tokens: [{ token: TOKEN }] });
      const seen = new Seen();
      const consoleLines: unknown[] = [];
      for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
        vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void consoleLines.push(args));
      }
      const client = target.client({
        token: TOKEN,
        logger: logger(seen),
        onRetry: (info) => seen.add(info),
      });
      seen.add(client);
      for (const part of [client.skills, client.chats, client.turns, client.actions]) seen.add(part);
      const { mock } = target;
      const chatId = crypto.randomUUID();

      // Successes: results, pages, streams and interactions.
      const skill = (await seen.run(() =>
        client.skills.create({ name: 'Tone', instructions: 'Be brief.' }),
      )) as {
        id: number;
      };
      const pages = client.skills.list({ size: 1 });
      seen.add(pages);
      seen.add(await pages);
      await seen.run(() => client.turns.send(chatId, { content: '[[mock:words n=3]]' }));
      const stream = client.turns.stream(crypto.randomUUID(), { content: '[[mock:words n=3]]' });
      seen.add(stream);
      for await (const event of stream) seen.add(event);
      seen.add(stream);
      let captured: unknown;
      await seen.run(() =>
        client.turns.run(
          crypto.randomUUID(),
          { content: '[[mock:tool_approval]]' },
          {
            onToolApproval: (interaction) => {
              captured = interaction;
              seen.add(interaction);
              return true;
            },
          },
        ),
      );

      // Every error class.
      const errors = [
        await seen.run(() => client.chats.create({ name: 5 as never })),
        await seen.run(() => client.skills.get(999_999)),
        await seen.run(() => client.turns.send(chatId, { content: '[[mock:error code=upstream_error]]' })),
        await seen.run(() =>
          client.turns.send(chatId, { content: '[[mock:error code=persistence_failed]]' }),
        ),
        await seen.run(() =>
          client.turns.send(chatId, { content: 'x', attachments: { file_ids: Array(200_000).fill(11) } }),
        ),
        await seen.run(() =>
          client.turns.stream(chatId, { content: '[[mock:error code=turn_timeout]]' }).finalTurn(),
        ),
        await seen.run(() =>
          client.turns.send(
            crypto.randomUUID(),
            { content: '[[mock:slow ms=50]] x' },
            { timeout: 10, maxRetries: 0 },
          ),
        ),
        await seen.run(async () => {
          const controller = new AbortController();
          const hung = crypto.randomUUID();
          const s = client.turns.stream(hung, { content: '[[mock:hang]]' }, { signal: controller.signal });
          try {
            for await (const event of s) if (event.type === 'start') controller.abort(new Error('stop'));
          } finally {
            // Aborting stops the reading, not the turn (4.4): cancel it.
            seen.add(await client.turns.cancel(hung));
          }
        }),
        await seen.run(() => {
          mock.faults.add({ route: 'send', drop: 'before-response' });
          return client.turns.send(crypto.randomUUID(), { content: 'x' }, { maxRetries: 0 });
        }),
        await seen.run(() => {
          mock.faults.add({ route: 'stream', cutAfterEvents: 2, times: 5 });
          return client.turns.stream(crypto.randomUUID(), { content: 'x' }, { maxResumes: 1 }).finalTurn();
        }),
        await seen.run(() => {
          vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 200_000);
          return (captured as { approveAll(): Promise<unknown> }).approveAll();
        }),
        await seen.run(async () => {
          const s = client.turns.stream(crypto.randomUUID(), { content: 'x' });
          await s.finalTurn();
          for await (const _ of s) {
          }
        }),
      ];
      vi.restoreAllMocks();
      mock.faults.clear();
      for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
        vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void consoleLines.push(args));
      }
      // A wrong token is a secret too: 401 on a call and on a stream.
      const stranger = target.client({ token: WRONG, logger: logger(seen) });
      errors.push(await seen.run(() => client.skills.delete(skill.id).then(() => stranger.skills.list())));
      errors.push(
        await seen.run(() => stranger.turns.stream(crypto.randomUUID(), { content: 'x' }).finalTurn()),
      );
      // A response that breaks the contract, and nobody listening at all.
      const broken = new Client({
        baseUrl: 'https://api.test',
        token: TOKEN,
        fetch: async () => ok({ id: 'not an integer' }),
        logger: logger(seen),
      });
      errors.push(await seen.run(() => broken.skills.get(1)));
      const gone = await startMockServer({ port: 0 });
      await gone.close();
      const refused = new Client({ baseUrl: gone.url, token: TOKEN, maxRetries: 0, logger: logger(seen) });
      errors.push(await seen.run(() => refused.skills.list()));

      for (const [error, type] of [
        [0, ValidationError],
        [1, ApiError],
        [2, ApiError],
        [3, ApiError],
        [4, ApiError],
        [5, TurnError],
        [6, TimeoutError],
        [7, AbortError],
        [8, ConnectionError],
        [9, StreamInterruptedError],
        [10, InteractionExpiredError],
        [11, ConvoError],
        [12, ApiError],
        [13, ApiError],
        [14, ResponseValidationError],
        [15, ConnectionError],
      ] as const) {
        expect(errors[error], `error ${error}`).toBeInstanceOf(type);
      }
      expect((errors[12] as ApiError).status).toBe(401);

      await target.quiesce();
      seen.add(consoleLines);
      for (const records of [
        mock.store.skills(),
        mock.store.chats(),
        mock.store.turns(),
        mock.store.interactions(),
      ]) {
        seen.add(records);
      }
      expect(seen.texts.some((text) => text.startsWith('debug '))).toBe(true);
      expect(seen.texts.some((text) => text.startsWith('warn '))).toBe(true);
      seen.expectNoToken();
      await target.close();
    });
  });
}
