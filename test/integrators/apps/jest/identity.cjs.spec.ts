// Jest's CommonJS runtime loads the package's CommonJS build; the ESM build, loaded through Node's own require
// (as code outside Jest's sandbox would), throws errors that must match the classes the test imported, and the
// reverse. Jest 30 hands that require to its own runtime, which refuses an ES module without
// --experimental-vm-modules: there no ESM build can reach the sandbox, and the test checks that it cannot. Its
// globals come from '@jest/globals' once copied (apps.mjs).
import { dirname, join } from 'node:path';
import { Client, ConvoError, NotFoundError } from 'convo-sdk';
import { createMock } from 'convo-sdk/mock';
import { describe, expect, test } from 'vitest';

const nodeRequire = process.getBuiltinModule('node:module').createRequire(__filename);
const dist = dirname(require.resolve('convo-sdk'));
const jestMajor = Number(String(require('jest/package.json').version).split('.')[0]);

describe('one class per error across the builds (Jest CommonJS)', () => {
  test("a 404 of the ESM build is the CommonJS build's NotFoundError, and the reverse, where Jest loads both", async () => {
    if (jestMajor >= 30) {
      expect(() => nodeRequire(join(dist, 'index.js'))).toThrow(/Must use import to load ES Module/);
      return;
    }
    const esm: typeof import('convo-sdk') = nodeRequire(join(dist, 'index.js'));
    const esmMock: typeof import('convo-sdk/mock') = nodeRequire(join(dist, 'mock', 'index.js'));
    expect(esm.NotFoundError).not.toBe(NotFoundError);
    const service = esmMock.createMock();
    const esmClient = new esm.Client({
      baseUrl: service.url,
      token: 'mock-token',
      fetch: service.fetch,
      maxRetries: 0,
    });
    const fromEsm = await esmClient.skills.get(999_999).catch((error: unknown) => error);
    expect(fromEsm).toBeInstanceOf(NotFoundError);
    expect(fromEsm).toBeInstanceOf(ConvoError);
    const local = createMock();
    const client = new Client({ baseUrl: local.url, token: 'mock-token', fetch: local.fetch, maxRetries: 0 });
    const fromCjs = await client.skills.get(999_999).catch((error: unknown) => error);
    expect(fromCjs).toBeInstanceOf(esm.NotFoundError);
    expect(fromCjs).not.toBeInstanceOf(esm.ConflictError);
  });
});
