import { describe, expect, it } from 'vitest';
import { Client, ValidationError } from '../../src/index.js';
import { fakeClient } from '../support/fake-client.js';
import { fakeFetch, ok, skill } from '../support/fake-fetch.js';

function setup() {
  const faked = fakeFetch(ok(skill()));
  return { ...faked, client: fakeClient(faked.fetch) };
}

async function rejection(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

describe('input checks before sending', () => {
  it.each([
    ['name', { name: 'n'.repeat(256), instructions: 'i' }, 255],
    ['instructions', { name: 'n', instructions: 'i'.repeat(12_001) }, 12_000],
    ['description', { name: 'n', instructions: 'i', description: 'd'.repeat(501) }, 500],
  ])(
    '8 skill %s one past its limit -> ValidationError naming the field and limit',
    async (field, body, limit) => {
      const { client, requests } = setup();
      const error = await rejection(client.skills.create(body));
      expect(error.field).toBe(field);
      expect(error.limit).toBe(limit);
      expect(error.message).toContain(String(limit));
      expect(requests).toHaveLength(0);
    },
  );

  it('8 limits count characters as code points: 255 emoji make a valid name, 256 do not', async () => {
    const { client, requests } = setup();
    await client.skills.create({ name: '😀'.repeat(255), instructions: 'i' });
    expect(requests).toHaveLength(1);
    await rejection(client.skills.create({ name: '😀'.repeat(256), instructions: 'i' }));
  });

  it('4.1 name and instructions are required', async () => {
    const { client } = setup();
    const error = await rejection(client.skills.create({ name: 'n' } as never));
    expect(error.field).toBe('instructions');
    expect(error.message).toBe('instructions: is required');
  });

  it('4.1 level outside personal, company, workspace is rejected', async () => {
    const { client } = setup();
    const error = await rejection(
      client.skills.create({ name: 'n', instructions: 'i', level: 'team' as never }),
    );
    expect(error.field).toBe('level');
    expect(error.message).toContain('"personal"');
  });

  it('4.1 visibility outside public, private, shared is rejected', async () => {
    const { client } = setup();
    const error = await rejection(
      client.skills.create({ name: 'n', instructions: 'i', visibility: 'everyone' as never }),
    );
    expect(error.field).toBe('visibility');
  });

  it('4.1 workspace_id is optional with level workspace (create table: required "no"): the body is sent', async () => {
    const { client, requests } = setup();
    await client.skills.create({ name: 'n', instructions: 'i', level: 'workspace' });
    expect(requests).toHaveLength(1);
  });

  it('4.1 shared_user_ids must be integers', async () => {
    const { client } = setup();
    const error = await rejection(
      client.skills.create({ name: 'n', instructions: 'i', shared_user_ids: [1, 2.5] }),
    );
    expect(error.field).toBe('shared_user_ids.1');
  });

  it('4.1 level is not editable on update', async () => {
    const { client } = setup();
    const error = await rejection(client.skills.update(1, { level: 'company' } as never));
    expect(error.field).toBe('level');
  });

  it('8 instructions over 12,000 characters are rejected on update too', async () => {
    const { client } = setup();
    const error = await rejection(client.skills.update(1, { instructions: 'i'.repeat(12_001) }));
    expect(error.limit).toBe(12_000);
  });

  it('4.1 skill_id must be an integer', async () => {
    const { client, requests } = setup();
    const error = await rejection(client.skills.get(1.5));
    expect(error.field).toBe('skill_id');
    expect(requests).toHaveLength(0);
  });

  it.each([
    [{ size: 201 }, 'size', 200],
    [{ size: 0 }, 'size', 1],
    [{ page: 0 }, 'page', 1],
  ])('8 list %j -> ValidationError before sending', async (query, field, limit) => {
    const { client, requests } = setup();
    const error = await rejection(Promise.resolve().then(() => client.skills.list(query)));
    expect(error.field).toBe(field);
    expect(error.limit).toBe(limit);
    expect(requests).toHaveLength(0);
  });

  it('a client without baseUrl or token builds, and its first call says which is missing', async () => {
    const saved = { base: process.env.CONVO_BASE_URL, token: process.env.CONVO_API_TOKEN };
    delete process.env.CONVO_BASE_URL;
    delete process.env.CONVO_API_TOKEN;
    try {
      await expect(new Client({ token: 't' }).skills.get(1)).rejects.toThrow(/baseUrl/);
      await expect(new Client({ baseUrl: 'https://a.test' }).skills.get(1)).rejects.toThrow(/token/);
      expect(() => new Client({ baseUrl: 'not a url', token: 't' })).toThrow(/absolute URL/);
    } finally {
      if (saved.base !== undefined) process.env.CONVO_BASE_URL = saved.base;
      if (saved.token !== undefined) process.env.CONVO_API_TOKEN = saved.token;
    }
  });
});
