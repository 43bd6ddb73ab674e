import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, ValidationError } from '../../src/index.js';
import { LIMITS } from '../../src/schemas.js';
import { metadataOfBytes } from '../support/input-arbitraries.js';
import { useTarget } from '../support/mock-targets.js';

/**
 * Every field limit of sections 4 and 8, at its bound and one past it, in the client (a ValidationError
 * naming the field and the limit, nothing sent) and in the mock (the documented 422). Characters are code
 * points: each limit is tried with ASCII, 2-byte, astral and combining-mark text, so that a string whose
 * UTF-16 length is twice the limit is still accepted when its code points are not over it.
 */

/** Code points of one code point each, of every width, and a pair that is one grapheme of two. */
const FILLERS: Array<[name: string, unit: string]> = [
  ['ASCII', 'a'],
  ['2-byte', 'é'],
  ['astral (2 UTF-16 units)', '😀'],
  ['combining mark', '\u0301'],
  ['base + combining mark (2 code points)', 'e\u0301'],
  ['lone surrogate', '\ud800'],
];

/** `n` code points of `unit` (padded with ASCII when the unit is two code points and `n` is odd). */
function chars(n: number, unit: string): string {
  const width = [...unit].length;
  return unit.repeat(Math.floor(n / width)) + 'a'.repeat(n % width);
}

interface TextLimit {
  spec: string;
  field: string;
  limit: number;
  /** The mock's `message_code` one past the limit. */
  code: string;
  client(client: Client, value: string): Promise<unknown>;
  raw(value: string): { method: string; path: string; body: unknown; headers?: Record<string, string> };
}

let skillId = 0;
const chatPath = () => `/api/v1/chats/${crypto.randomUUID()}`;
const keyed = () => ({ 'idempotency-key': crypto.randomUUID() });

const TEXT_LIMITS: TextLimit[] = [
  {
    spec: '4.1, 8',
    field: 'name',
    limit: LIMITS.skillName,
    code: 'api_v1_validation_error',
    client: (c, v) => c.skills.create({ name: v, instructions: 'x' }),
    raw: (v) => ({ method: 'POST', path: '/api/v1/skills', body: { name: v, instructions: 'x' } }),
  },
  {
    spec: '4.1, 8',
    field: 'description',
    limit: LIMITS.skillDescription,
    code: 'api_v1_validation_error',
    client: (c, v) => c.skills.create({ name: 'n', instructions: 'x', description: v }),
    raw: (v) => ({
      method: 'POST',
      path: '/api/v1/skills',
      body: { name: 'n', instructions: 'x', description: v },
    }),
  },
  {
    spec: '4.1, 7.2, 8',
    field: 'instructions',
    limit: LIMITS.skillInstructions,
    code: 'prompt_text_too_long',
    client: (c, v) => c.skills.create({ name: 'n', instructions: v }),
    raw: (v) => ({ method: 'POST', path: '/api/v1/skills', body: { name: 'n', instructions: v } }),
  },
  {
    spec: '4.1, 7.2, 8',
    field: 'instructions',
    limit: LIMITS.skillInstructions,
    code: 'prompt_text_too_long',
    client: (c, v) => c.skills.update(skillId, { instructions: v }),
    raw: (v) => ({ method: 'PATCH', path: `/api/v1/skills/${skillId}`, body: { instructions: v } }),
  },
  {
    spec: '4.1, 8',
    field: 'name',
    limit: LIMITS.skillName,
    code: 'api_v1_validation_error',
    client: (c, v) => c.skills.update(skillId, { name: v }),
    raw: (v) => ({ method: 'PATCH', path: `/api/v1/skills/${skillId}`, body: { name: v } }),
  },
  {
    spec: '4.2, 8',
    field: 'name',
    limit: LIMITS.chatName,
    code: 'api_v1_validation_error',
    client: (c, v) => c.chats.create({ name: v }),
    raw: (v) => ({ method: 'POST', path: '/api/v1/chats', body: { name: v } }),
  },
  {
    spec: '4.3, 7.3, 8',
    field: 'content',
    limit: LIMITS.turnContent,
    code: 'api_v1_content_too_long',
    client: (c, v) => c.turns.send(crypto.randomUUID(), { content: v }),
    raw: (v) => ({
      method: 'POST',
      path: `${chatPath()}/messages`,
      body: { content: v, permission_mode: 'auto' },
      headers: keyed(),
    }),
  },
  {
    spec: '4.4, 8',
    field: 'content',
    limit: LIMITS.turnContent,
    code: 'api_v1_content_too_long',
    client: (c, v) => c.turns.stream(crypto.randomUUID(), { content: v }).finalTurn(),
    raw: (v) => ({
      method: 'POST',
      path: `${chatPath()}/messages/stream`,
      body: { content: v },
      headers: keyed(),
    }),
  },
];

/** Metadata bytes: fillers whose JSON takes 1, 2, 3, 4 and 6 bytes per character, and escapes. */
const BYTE_FILLERS = ['a', 'é', '€', '😀', '"', '\n', '\u0001', '\ud800'];

/** `{ k: … }` serializing to exactly `bytes` bytes of UTF-8 JSON with `filler`, padded with ASCII. */
function metadataBytes(bytes: number, filler: string): Record<string, string> {
  const width = new TextEncoder().encode(JSON.stringify(filler)).length - 2;
  const room = bytes - 8;
  return { k: filler.repeat(Math.floor(room / width)) + 'a'.repeat(room % width) };
}

describe('bad input: every limit at its bound and one past it', () => {
  const target = useTarget();
  let client: Client;
  beforeAll(async () => {
    client = target.client();
    skillId = (await client.skills.create({ name: 'Tone', instructions: 'Be brief.' })).id;
  });

  for (const limit of TEXT_LIMITS) {
    for (const [name, unit] of FILLERS) {
      it(`${limit.spec} ${limit.field} of ${limit.raw('').path.replace(/[0-9a-f-]{36}/, '{id}')} ${limit.raw('').method}: ${limit.limit} characters of ${name} pass, ${limit.limit + 1} do not, in the client and the mock`, async () => {
        const at = chars(limit.limit, unit);
        const past = chars(limit.limit + 1, unit);
        // At the bound: both accept.
        await expect(limit.client(client, at)).resolves.toBeDefined();
        const request = limit.raw(at);
        const accepted = await target.raw(request.method, request.path, request);
        expect(accepted.status, JSON.stringify(accepted.body)).toBeLessThan(300);
        // One past: the client refuses before sending, naming field and limit; the mock answers its 422.
        const sent = target.requests.length;
        // A promise rejects; turns.stream fails its first read (here finalTurn): the same ValidationError.
        const error = await Promise.resolve()
          .then(() => limit.client(client, past))
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ValidationError);
        expect([(error as ValidationError).field, (error as ValidationError).limit]).toEqual([
          limit.field,
          limit.limit,
        ]);
        expect(target.requests.length).toBe(sent);
        const pastRequest = limit.raw(past);
        const refused = await target.raw(pastRequest.method, pastRequest.path, pastRequest);
        expect([refused.status, refused.body.message_code]).toEqual([422, limit.code]);
        expect(refused.body.data[0]).toMatchObject({ field: limit.field, limit: limit.limit });
      });
    }
  }

  it('8 the UTF-16 length does not count: 64,000 astral characters (128,000 units) are a valid turn', async () => {
    const content = '😀'.repeat(LIMITS.turnContent);
    expect(content.length).toBe(2 * LIMITS.turnContent);
    const turn = await client.turns.send(crypto.randomUUID(), { content });
    expect(turn.status).toBe('completed');
  });

  for (const filler of BYTE_FILLERS) {
    it(`4.3, 8 metadata of ${JSON.stringify(filler)} text: 2048 serialized bytes pass, 2049 do not, in the client and the mock`, async () => {
      const at = metadataBytes(LIMITS.turnMetadataBytes, filler);
      const past = metadataBytes(LIMITS.turnMetadataBytes + 1, filler);
      expect(new TextEncoder().encode(JSON.stringify(at)).length).toBe(2048);
      expect(new TextEncoder().encode(JSON.stringify(past)).length).toBe(2049);
      for (const send of [
        (metadata: object) =>
          client.turns.send(crypto.randomUUID(), { content: 'x', metadata: metadata as never }),
        (metadata: object) =>
          client.turns.stream(crypto.randomUUID(), { content: 'x', metadata: metadata as never }).finalTurn(),
      ]) {
        expect((await send(at)).metadata).toEqual(at);
        const error = await Promise.resolve()
          .then(() => send(past))
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ValidationError);
        expect([(error as ValidationError).field, (error as ValidationError).limit]).toEqual([
          'metadata',
          2048,
        ]);
      }
      for (const path of ['messages', 'messages/stream']) {
        const raw = (metadata: object) =>
          target.raw('POST', `${chatPath()}/${path}`, {
            body: { content: 'x', permission_mode: 'auto', metadata },
            headers: { 'idempotency-key': crypto.randomUUID() },
          });
        expect((await raw(at)).status).toBe(200);
        const refused = await raw(past);
        expect([refused.status, refused.body.message_code, refused.body.data[0]?.field]).toEqual([
          422,
          'api_v1_validation_error',
          'metadata',
        ]);
      }
    });
  }

  it('8 the same metadata helper agrees with the fuzzers’ one', () => {
    for (const filler of ['a', 'é', '€', '😀'] as const) {
      expect(metadataOfBytes(2048, filler)).toEqual(metadataBytes(2048, filler));
    }
  });

  const LISTS: Array<[string, (c: Client, q: object) => PromiseLike<unknown>, string]> = [
    ['GET /skills', (c, q) => c.skills.list(q), '/api/v1/skills'],
    ['GET /chats', (c, q) => c.chats.list(q), '/api/v1/chats'],
  ];
  for (const [name, list, path] of LISTS) {
    it(`4, 8 ${name}: size 1 and 200 pass, 0 and 201 do not; page 1 passes, 0 does not, in the client and the mock`, async () => {
      for (const query of [{ size: 1 }, { size: 200 }, { page: 1 }]) {
        await expect(list(client, query)).resolves.toBeDefined();
        expect((await target.raw('GET', `${path}?${new URLSearchParams(query as never)}`)).status).toBe(200);
      }
      for (const [query, field, limit] of [
        [{ size: 0 }, 'size', 1],
        [{ size: 201 }, 'size', 200],
        [{ page: 0 }, 'page', 1],
      ] as const) {
        const error = await Promise.resolve()
          .then(() => list(client, query))
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ValidationError);
        expect([(error as ValidationError).field, (error as ValidationError).limit]).toEqual([field, limit]);
        const refused = await target.raw('GET', `${path}?${new URLSearchParams(query as never)}`);
        expect([refused.status, refused.body.data[0]?.field]).toEqual([422, field]);
      }
    });
  }

  it('4.2, 8 GET /chats/{chat_id}/messages: the same page limits', async () => {
    const chat = await client.chats.create({});
    const error = await Promise.resolve()
      .then(() => client.chats.messages(chat.id, { size: 201 }))
      .catch((e: unknown) => e);
    expect([(error as ValidationError).field, (error as ValidationError).limit]).toEqual(['size', 200]);
    const refused = await target.raw('GET', `/api/v1/chats/${chat.id}/messages?size=201`);
    expect([refused.status, refused.body.data[0]?.field]).toEqual([422, 'size']);
    expect((await target.raw('GET', `/api/v1/chats/${chat.id}/messages?size=200`)).status).toBe(200);
  });
});
