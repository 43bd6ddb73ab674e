import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ChatSchema, chatSchema } from '../../src/contract/chat.js';
import { ENDPOINTS, PATH_PARAMS } from '../../src/contract/endpoints.js';
import { ERROR_DATA_SCHEMAS, errorDataSchemas } from '../../src/contract/error-data.js';
import { DeltaPayloadSchema, EVENT_SCHEMAS, EVENTS } from '../../src/contract/events.js';
import { ANSWERS, ApproveToolSchema } from '../../src/contract/interactions.js';
import { lazy } from '../../src/contract/lazy.js';
import { TurnStreamBodySchema } from '../../src/contract/turn.js';

const CHAT = '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

describe('lazy', () => {
  it('builds nothing until the first call, then once: every call returns the same value', () => {
    let builds = 0;
    const value = lazy(() => ({ built: ++builds }));
    expect(builds).toBe(0);
    const first = value();
    expect(value()).toBe(first);
    expect(builds).toBe(1);
    expect(first).toEqual({ built: 1 });
  });
});

describe("the contract's tables build their schemas on first read, one object each", () => {
  it('the endpoint, event, answer and error-data tables give the schemas convo-sdk/schemas exports', () => {
    expect(ENDPOINTS['chats.get'].data).toBe(ChatSchema);
    expect(ENDPOINTS['chats.update'].data).toBe(chatSchema());
    expect(ENDPOINTS['turns.stream'].body).toBe(TurnStreamBodySchema);
    expect(ENDPOINTS['actions.approveTool'].body).toBe(ApproveToolSchema);
    expect(ANSWERS.tool_approval.schema).toBe(ApproveToolSchema);
    expect(EVENTS['message.delta'].schema).toBe(DeltaPayloadSchema);
    expect(EVENT_SCHEMAS['message.delta']).toBe(DeltaPayloadSchema);
    expect(ERROR_DATA_SCHEMAS).toBe(errorDataSchemas());
    expect(ERROR_DATA_SCHEMAS.upstream_error).toBe(ERROR_DATA_SCHEMAS.turn_timeout);
  });

  it('a list endpoint gives the same array schema on every read (what the compiled-schema cache keys on)', () => {
    expect(ENDPOINTS['chats.list'].data).toBe(ENDPOINTS['chats.list'].data);
    expect(ENDPOINTS['chats.messages'].data).toBe(ENDPOINTS['chats.messages'].data);
    expect(PATH_PARAMS.chat_id).toBe(PATH_PARAMS.chat_id);
    expect(PATH_PARAMS.chat_id.safeParse(CHAT).success).toBe(true);
    expect(PATH_PARAMS.skill_id.safeParse(1.5).success).toBe(false);
  });
});

describe('importing the client', () => {
  it('builds no schema of the contract; its first request builds what it checks', async () => {
    const root = resolve(import.meta.dirname, '../..');
    const lazyFile = join(root, 'src/contract/lazy.ts');
    const source = readFileSync(lazyFile, 'utf8');
    const counted = source.replace(
      '(built ??= build())',
      '(built ??= ((globalThis.__lazyBuilds = (globalThis.__lazyBuilds ?? 0) + 1), build()))',
    );
    expect(counted).not.toBe(source);
    // Bundled and tree-shaken as an app's bundler or the package's build does: the schemas' exported values
    // (marked pure) are dropped where nothing reads them.
    const result = await build({
      entryPoints: [join(root, 'src/index.ts')],
      bundle: true,
      format: 'esm',
      platform: 'node',
      write: false,
      logLevel: 'silent',
      plugins: [
        {
          name: 'count-builds',
          setup(b) {
            b.onLoad({ filter: /[\\/]src[\\/]contract[\\/]lazy\.ts$/ }, () => ({
              contents: counted,
              loader: 'ts',
            }));
          },
        },
      ],
    });
    const dir = mkdtempSync(join(tmpdir(), 'lazy-schemas-'));
    const global = globalThis as { __lazyBuilds?: number };
    try {
      const file = join(dir, 'client.mjs');
      writeFileSync(file, result.outputFiles[0]!.contents);
      global.__lazyBuilds = 0;
      const { Client } = (await import(pathToFileURL(file).href)) as typeof import('../../src/index.js');
      const chat = {
        id: CHAT,
        name: null,
        is_favorite: false,
        permission_mode: 'manual',
        model_id: null,
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-01T00:00:00Z',
      };
      const fetch = async () =>
        Response.json({
          status: 'success',
          message: 'ok',
          message_code: 'ok',
          data: chat,
          meta: { request_id: 'r' },
        });
      const client = new Client({ baseUrl: 'https://api.example.com', token: 'token', fetch });
      expect(global.__lazyBuilds).toBe(0);
      await expect(client.chats.get(CHAT)).resolves.toMatchObject({ id: CHAT });
      expect(global.__lazyBuilds).toBeGreaterThan(0);
    } finally {
      delete global.__lazyBuilds;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
