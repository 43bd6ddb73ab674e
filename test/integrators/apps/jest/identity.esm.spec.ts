// Jest's ESM mode loads the package's ESM build for `import`, and its CommonJS build for `require` (a CommonJS
// dependency of the app): an error of either build matches the classes of the other. Its globals come from
// '@jest/globals' once copied (apps.mjs).

import { createRequire } from 'node:module';
import { Client, ConvoError, NotFoundError } from 'convo-sdk';
import { createMock } from 'convo-sdk/mock';
import { describe, expect, test } from 'vitest';

const require = createRequire(import.meta.url);
const cjs: typeof import('convo-sdk') = require('convo-sdk');
const cjsMock: typeof import('convo-sdk/mock') = require('convo-sdk/mock');

describe('one class per error across the builds (Jest ESM)', () => {
  test("a 404 of the CommonJS build is the ESM build's NotFoundError, and the reverse", async () => {
    expect(cjs.NotFoundError).not.toBe(NotFoundError);
    const service = cjsMock.createMock();
    const cjsClient = new cjs.Client({
      baseUrl: service.url,
      token: 'mock-token',
      fetch: service.fetch,
      maxRetries: 0,
    });
    const fromCjs = await cjsClient.skills.get(999_999).catch((error: unknown) => error);
    expect(fromCjs).toBeInstanceOf(NotFoundError);
    expect(fromCjs).toBeInstanceOf(ConvoError);
    const local = createMock();
    const client = new Client({ baseUrl: local.url, token: 'mock-token', fetch: local.fetch, maxRetries: 0 });
    const fromEsm = await client.skills.get(999_999).catch((error: unknown) => error);
    expect(fromEsm).toBeInstanceOf(cjs.NotFoundError);
    expect(fromEsm).not.toBeInstanceOf(cjs.ConflictError);
  });
});
