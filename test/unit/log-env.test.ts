import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Client, consoleLogger, type Logger, ValidationError } from '../../src/index.js';
import { mockClient } from '../support/mock-client.js';

// CONVO_LOG: a console logger at the level the environment names, unless the caller passes a logger.
const TOKEN = 'tok_live_9c8b7a6f5e4d';
const methods = ['debug', 'info', 'warn', 'error'] as const;
let lines: Record<(typeof methods)[number], string[]>;

beforeEach(() => {
  lines = { debug: [], info: [], warn: [], error: [] };
  for (const method of methods) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines[method].push(args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '));
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.CONVO_LOG;
});

/** A client of a fresh mock, with the given environment level; streams one turn with a failover. */
async function streamTurn(level: string | undefined, logger?: Logger) {
  if (level === undefined) delete process.env.CONVO_LOG;
  else process.env.CONVO_LOG = level;
  const { client } = mockClient({ tokens: [{ token: TOKEN }] }, logger && { logger });
  const chat = await client.chats.create({ name: 'log' });
  // A request that fails (404), so that the lines include an error status too.
  await client.skills.get(999).catch(() => undefined);
  await client.turns.stream(chat.id, { content: 'hi [[mock:words n=3]]' }).finalTurn();
}

describe('CONVO_LOG', () => {
  it('5 debug: one [convo-sdk] line per request on console.debug, none carrying the token', async () => {
    await streamTurn('debug');
    expect(lines.debug.length).toBeGreaterThanOrEqual(2);
    expect(lines.debug.every((line) => line.startsWith('[convo-sdk] '))).toBe(true);
    expect(lines.debug.some((line) => line.includes('/api/v1/skills/999 -> 404'))).toBe(true);
    expect(Object.values(lines).flat().join('\n')).not.toContain(TOKEN);
  });

  it('warn, error, off and unset print no per-request line; the level is case-insensitive', async () => {
    for (const level of ['warn', 'ERROR', 'off', undefined]) {
      await streamTurn(level);
      expect(lines.debug, String(level)).toEqual([]);
    }
  });

  it('an explicit logger wins over the environment', async () => {
    const mine: string[] = [];
    await streamTurn('debug', { debug: (message) => mine.push(message) });
    expect(mine.length).toBeGreaterThan(0);
    expect(lines.debug).toEqual([]);
  });

  it('an unknown level is a ValidationError that names the variable and the levels', () => {
    process.env.CONVO_LOG = 'verbose';
    const error = (() => {
      try {
        new Client({ baseUrl: 'https://a.test', token: TOKEN });
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('CONVO_LOG');
    expect((error as Error).message).toBe(
      'CONVO_LOG: must be one of debug, info, warn, error, off, not "verbose"',
    );
    expect((error as Error).message).not.toContain(TOKEN);
  });

  it('reads nothing where the environment cannot be read (a page, an edge worker, Deno without --allow-env)', () => {
    const env = Object.getOwnPropertyDescriptor(process, 'env')!;
    Object.defineProperty(process, 'env', {
      configurable: true,
      get() {
        throw new Error('NotCapable: requires env access');
      },
    });
    try {
      expect(() => new Client({ baseUrl: 'https://a.test', token: TOKEN })).not.toThrow();
    } finally {
      Object.defineProperty(process, 'env', env);
    }
  });
});

describe('consoleLogger', () => {
  it('has the methods of its level and above, and none for off', () => {
    expect(Object.keys(consoleLogger('debug'))).toEqual(['debug', 'info', 'warn', 'error']);
    expect(Object.keys(consoleLogger('warn'))).toEqual(['warn', 'error']);
    expect(Object.keys(consoleLogger('off'))).toEqual([]);
    consoleLogger('info').info?.('hello', { n: 1 });
    expect(lines.info).toEqual(['[convo-sdk] hello {"n":1}']);
  });
});
