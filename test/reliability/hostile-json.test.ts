import { afterEach, expect, it } from 'vitest';
import { describeOnTargets } from '../support/mock-targets.js';

/**
 * Hostile JSON: keys such as `__proto__`, `constructor` and `prototype` are data. In metadata they are
 * echoed verbatim as own keys (2.4: "echoed verbatim"), and anywhere in any request they change no
 * prototype, in the mock or in the client.
 */

const HOSTILE =
  '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"},"toString":"not a function","hasOwnProperty":1}';

/** An object whose own keys are the hostile ones, as JSON.parse makes it (a literal would set the prototype). */
const hostile = () => JSON.parse(HOSTILE) as Record<string, unknown>;

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype];
const pristine = PROTOTYPES.map((proto) => Object.getOwnPropertyNames(proto).sort());

function expectNoPollution() {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(PROTOTYPES.map((proto) => Object.getOwnPropertyNames(proto).sort())).toEqual(pristine);
}

function expectEchoed(metadata: unknown) {
  const echoed = metadata as Record<string, unknown>;
  expect(Object.getPrototypeOf(echoed)).toBe(Object.prototype);
  expect(Object.keys(echoed).sort()).toEqual(Object.keys(hostile()).sort());
  expect(Object.hasOwn(echoed, '__proto__')).toBe(true);
  expect(JSON.stringify(echoed)).toBe(HOSTILE);
  expect((echoed as { polluted?: unknown }).polluted).toBeUndefined();
}

describeOnTargets('hostile JSON', (target) => {
  afterEach(expectNoPollution);

  it('2.4, 4.3 metadata with __proto__, constructor and prototype keys is echoed as data by send, replay and listing', async () => {
    const client = target.client();
    const chatId = crypto.randomUUID();
    const key = crypto.randomUUID();
    const turn = await client.turns.send(
      chatId,
      { content: 'x', metadata: hostile() },
      { idempotencyKey: key },
    );
    expectEchoed(turn.metadata);
    const replay = await client.turns.send(
      chatId,
      { content: 'x', metadata: hostile() },
      { idempotencyKey: key },
    );
    expectEchoed(replay.metadata);
    expect(target.mock.runs(key)).toBe(1);
    const [listed] = (await client.chats.messages(chatId)).items;
    expectEchoed(listed?.metadata);
  });

  it('2.4, 4.4, 6 the same through a stream, its terminal event and a replay of its key', async () => {
    const client = target.client();
    const chatId = crypto.randomUUID();
    const key = crypto.randomUUID();
    const first = await client.turns
      .stream(chatId, { content: 'x', metadata: hostile() }, { idempotencyKey: key })
      .finalTurn();
    expectEchoed(first.metadata);
    const again = await client.turns
      .stream(chatId, { content: 'x', metadata: hostile() }, { idempotencyKey: key })
      .finalTurn();
    expectEchoed(again.metadata);
  });

  it('4.1-4.6 hostile keys at the top and inside every request body change no prototype, and are refused as unknown fields', async () => {
    const client = target.client();
    const skill = await client.skills.create({ name: 'Tone', instructions: 'Be brief.' });
    const chat = await client.chats.create({});
    const inject = (fields: string) => `{${HOSTILE.slice(1, -1)},${fields}}`;
    const requests: Array<[string, string, string]> = [
      ['POST', '/api/v1/skills', inject('"name":"n","instructions":"i"')],
      ['PATCH', `/api/v1/skills/${skill.id}`, inject('"name":"n2"')],
      ['POST', '/api/v1/chats', inject('"name":"c"')],
      ['PATCH', `/api/v1/chats/${chat.id}`, inject('"is_favorite":true')],
      [
        'POST',
        `/api/v1/chats/${chat.id}/messages`,
        inject(`"content":"x","permission_mode":"auto","attachments":${HOSTILE}`),
      ],
      [
        'POST',
        `/api/v1/chats/${crypto.randomUUID()}/messages/stream`,
        inject(`"content":"x","metadata":${HOSTILE}`),
      ],
      [
        'POST',
        `/api/v1/chats/${chat.id}/actions/approve-tool`,
        inject(`"action_id":"a","decisions":[${inject('"tool_use_id":"t","approved":true')}]`),
      ],
      ['POST', `/api/v1/chats/${chat.id}/actions/respond-plan`, inject('"action_id":"a","action":"approve"')],
      [
        'POST',
        `/api/v1/chats/${chat.id}/actions/respond-elicitation`,
        inject(`"action_id":"a","action":"accept","content":${inject('"email":"e"')}`),
      ],
      ['POST', `/api/v1/chats/${chat.id}/actions/cancel-auth`, inject('"action_id":"a"')],
      ['POST', `/api/v1/chats/${chat.id}/actions/cancel`, inject('"action_id":"a"')],
    ];
    for (const [method, path, body] of requests) {
      const reply = await target.raw(method, path, {
        body,
        headers: { 'idempotency-key': crypto.randomUUID() },
      });
      expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(500);
      expectNoPollution();
      // Bodies are closed: the hostile keys are unknown fields, refused by name, and nothing is applied.
      if (method === 'PATCH') {
        expect(reply.status).toBe(422);
        expect(JSON.stringify(reply.body)).toContain('__proto__');
      }
    }
    await target.quiesce();
    expect((await client.skills.get(skill.id)).name).toBe('Tone');
    expect((await client.chats.get(chat.id)).is_favorite).toBe(false);
  });

  it('4.5 an elicitation answered with a __proto__ key in its content: the model gets the data, nothing is polluted', async () => {
    const client = target.client();
    // Flat, as 4.5 requires (an object under `__proto__` is refused before sending, as any nested value).
    const content = JSON.parse('{"email":"ada@example.com","__proto__":"polluted"}');
    const turn = await client.turns.run(
      crypto.randomUUID(),
      { content: '[[mock:elicitation]]' },
      { onElicitation: () => ({ action: 'accept', content }) },
    );
    expect(turn.status).toBe('completed');
    const [answered] = target.mock.store.interactions().slice(-1);
    expect(answered?.answer).toMatchObject({
      kind: 'elicitation',
      action: 'accept',
      content: { email: 'ada@example.com' },
    });
  });
});
