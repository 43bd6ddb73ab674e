import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { SkillSchema } from '../../src/contract/skill.js';
import type * as HotSchema from '../../src/http/hot-schema.js';
import { fakeFetch, ok, skill } from '../support/fake-fetch.js';

/** A fresh copy of the module: its compiler and counts are per process. */
let hot: typeof HotSchema;
beforeEach(async () => {
  vi.resetModules();
  hot = await import('../../src/http/hot-schema.js');
});

const page = (from: number) => Array.from({ length: 200 }, (_, i) => skill({ id: from + i }));
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('hot schemas', () => {
  it('without a compiler (the entry bundlers load) the schema is always used as it is', async () => {
    const list = z.array(SkillSchema);
    for (let i = 0; i < 10; i++) expect(hot.hotSchema(list, page(1))).toBe(list);
  });

  it('a schema is compiled once, after it validated 1,000 items; single objects count one each', async () => {
    const compile = vi.fn(z.compile);
    hot.useSchemaCompiler(async () => compile as typeof z.compile);
    const list = z.array(SkillSchema);
    for (let i = 0; i < 4; i++) expect(hot.hotSchema(list, page(1))).toBe(list);
    expect(hot.hotSchema(list, page(1))).toBe(list); // the 1,000th item starts the compilation
    await settle();
    const fast = hot.hotSchema(list, page(1));
    expect(fast).not.toBe(list);
    for (let i = 0; i < 5; i++) hot.hotSchema(list, page(1));
    expect(compile).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 999; i++) expect(hot.hotSchema(SkillSchema, skill())).toBe(SkillSchema);
    hot.hotSchema(SkillSchema, skill());
    await settle();
    expect(compile).toHaveBeenCalledTimes(2);
  });

  it('the compiled copy gives the same data, and the same issues on invalid data', async () => {
    hot.useSchemaCompiler(async () => z.compile);
    const list = z.array(SkillSchema);
    for (let i = 0; i < 5; i++) hot.hotSchema(list, page(1));
    await settle();
    const fast = hot.hotSchema(list, page(1));
    expect(fast).not.toBe(list);
    const valid = page(1).map((s, i) => (i % 2 ? { ...s, extra: { kept: true } } : s));
    expect(fast.safeParse(valid)).toEqual(list.safeParse(valid));
    const invalid = page(1).map((s, i) => (i === 150 ? { ...s, level: 'galaxy', id: 1.5 } : s));
    expect(fast.safeParse(invalid).error?.issues).toEqual(list.safeParse(invalid).error?.issues);
  });

  it('a compiler that fails to load leaves the plain parser, with no unhandled rejection', async () => {
    hot.useSchemaCompiler(() => Promise.reject(new Error('no compiler here')));
    const list = z.array(SkillSchema);
    for (let i = 0; i < 10; i++) hot.hotSchema(list, page(1));
    await settle();
    expect(hot.hotSchema(list, page(1))).toBe(list);
  });

  it('2.2 through the Node entry: long lists stay validated once compiled (a bad item is still refused)', async () => {
    const { Client, ResponseValidationError } = await import('../../src/node.js');
    let bad = false;
    const { fetch } = fakeFetch(() =>
      ok(
        page(1).map((s, i) => (bad && i === 199 ? { ...s, created_at: 'yesterday' } : s)),
        { page: 1, size: 200, total: 200 },
      ),
    );
    const client = new Client({ baseUrl: 'https://api.test', token: 't', fetch });
    for (let i = 0; i < 6; i++) expect((await client.skills.list({ size: 200 })).items).toHaveLength(200);
    await settle();
    expect((await client.skills.list({ size: 200 })).items[199]).toEqual(skill({ id: 200 }));
    bad = true;
    const error = await client.skills.list({ size: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ path: 'data.199.created_at' });
  });
});
