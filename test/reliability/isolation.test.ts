import { describe, expect, it } from 'vitest';
import type { ToolApproval } from '../../src/index.js';
import { fetchTarget } from '../support/mock-targets.js';

/**
 * Section 1, 4.5 and 5: credentials are isolated on every endpoint. Credential A owns a skill, a chat with
 * a finished turn and a running turn paused on an interaction. Every other credential (another of the same
 * user, a coworker, another company) tries every read, write, answer and cancel on them and gets 404 each
 * time, and the mock's state is exactly what it was.
 */

const A = 'owner-a';
const OTHERS = [
  { token: 'same-user-b', userId: 1, who: 'another credential of the same user' },
  { token: 'coworker-b', userId: 2, who: 'a coworker (same company)' },
  { token: 'stranger-b', userId: 4, who: 'another company' },
] as const;

describe('5 isolation of credentials', () => {
  it('1, 4.1-4.6, 5 another credential gets 404 on every read, write, answer and cancel of A’s chats, turns, skills and actions, and nothing changes', async () => {
    const target = await fetchTarget({
      tokens: [{ token: A }, ...OTHERS.map(({ token, userId }) => ({ token, userId }))],
      interactionTtlMs: 120_000,
    });
    const a = target.client({ token: A });
    // Private to A's user: skills go by user (2.2), so same-user credentials are not tried on it.
    const skill = await a.skills.create({ name: 'Secret', instructions: 'x', visibility: 'private' });
    const chatId = crypto.randomUUID();
    const finishedKey = crypto.randomUUID();
    await a.turns.send(chatId, { content: 'first' }, { idempotencyKey: finishedKey });
    const running = a.turns.stream(chatId, { content: '[[mock:tool_approval]] second' });
    const iterator = running[Symbol.asyncIterator]();
    let interaction: ToolApproval | undefined;
    while (!interaction) {
      const { value } = await iterator.next();
      if (value?.type === 'action_required' && value.interaction.kind === 'tool_approval')
        interaction = value.interaction;
    }
    const actionId = interaction.action_id;
    const snapshot = () =>
      JSON.stringify({
        skills: target.mock.store.skills(),
        chats: target.mock.store.chats(),
        turns: target.mock.store.turns(),
        interactions: target.mock.store.interactions(),
      });
    const before = snapshot();

    const chat = `/api/v1/chats/${chatId}`;
    const decision = { action_id: actionId, decisions: [{ tool_use_id: 'toolu_1', approved: true }] };
    /** [what, applies to same-user credentials, method, path, body]: path may use the caller's own chat. */
    const ATTEMPTS: Array<[string, boolean, string, (own: string) => string, unknown?]> = [
      ['read the chat', true, 'GET', () => chat],
      ['rename the chat', true, 'PATCH', () => chat, { name: 'mine now', is_favorite: true }],
      ['delete the chat', true, 'DELETE', () => chat],
      ['list its turns', true, 'GET', () => `${chat}/messages`],
      [
        'send a turn into it',
        true,
        'POST',
        () => `${chat}/messages`,
        { content: 'x', permission_mode: 'auto' },
      ],
      ['stream a turn into it', true, 'POST', () => `${chat}/messages/stream`, { content: 'x' }],
      ['approve its tool', true, 'POST', () => `${chat}/actions/approve-tool`, decision],
      [
        'answer its plan',
        true,
        'POST',
        () => `${chat}/actions/respond-plan`,
        { action_id: actionId, action: 'approve' },
      ],
      [
        'answer its elicitation',
        true,
        'POST',
        () => `${chat}/actions/respond-elicitation`,
        { action_id: actionId, action: 'decline' },
      ],
      ['cancel its auth', true, 'POST', () => `${chat}/actions/cancel-auth`, { action_id: actionId }],
      ['cancel its running turn', true, 'POST', () => `${chat}/actions/cancel`, {}],
      ['cancel its interaction', true, 'POST', () => `${chat}/actions/cancel`, { action_id: actionId }],
      [
        'approve its tool from an own chat',
        true,
        'POST',
        (own) => `/api/v1/chats/${own}/actions/approve-tool`,
        decision,
      ],
      [
        'cancel its interaction from an own chat',
        true,
        'POST',
        (own) => `/api/v1/chats/${own}/actions/cancel`,
        { action_id: actionId },
      ],
      ['read the skill', false, 'GET', () => `/api/v1/skills/${skill.id}`],
      ['update the skill', false, 'PATCH', () => `/api/v1/skills/${skill.id}`, { name: 'mine now' }],
      ['toggle the skill', false, 'PATCH', () => `/api/v1/skills/${skill.id}/toggle`],
      ['delete the skill', false, 'DELETE', () => `/api/v1/skills/${skill.id}`],
      [
        'attach the skill to a turn',
        false,
        'POST',
        (own) => `/api/v1/chats/${own}/messages`,
        { content: 'x', permission_mode: 'auto', attachments: { skill_ids: [skill.id] } },
      ],
    ];

    const outcomes: string[] = [];
    for (const other of OTHERS) {
      const own = (await target.client({ token: other.token }).chats.create({})).id;
      const beforeOwn = snapshot();
      for (const [what, sameUser, method, path, body] of ATTEMPTS) {
        if (other.userId === 1 && !sameUser) continue;
        const reply = await target.raw(method, path(own), {
          token: other.token,
          ...(body === undefined ? {} : { body }),
          headers: { 'idempotency-key': crypto.randomUUID() },
        });
        outcomes.push(`${other.who} / ${what}: ${reply.status}`);
        expect(reply.status, `${other.who} could ${what}: ${JSON.stringify(reply.body)}`).toBe(404);
        expect(snapshot(), `${other.who} changed the state trying to ${what}`).toBe(beforeOwn);
      }
      // Lists do not show A's resources either (absent, not 404).
      const client = target.client({ token: other.token });
      expect((await client.chats.list()).items.map((c) => c.id)).toEqual([own]);
      if (other.userId !== 1) {
        expect((await client.skills.list()).items.map((s) => s.id)).not.toContain(skill.id);
        expect((await client.chats.catalog()).skills?.map((s) => s.id) ?? []).not.toContain(skill.id);
      }
      // A's key is A's: the same key from another credential starts its own turn, it does not replay A's.
      const reused = await client.turns.send(own, { content: 'first' }, { idempotencyKey: finishedKey });
      expect(reused.chat_id).toBe(own);
      expect(target.mock.runs(finishedKey, A)).toBe(1);
      expect(target.mock.runs(finishedKey, other.token)).toBe(1);
    }
    expect(outcomes).toHaveLength(3 * 14 + 2 * 5);

    // A's own state is exactly as it was, but for the other credentials' own chats and turns.
    const mine = (json: string) => {
      const state = JSON.parse(json);
      const ownerId = target.mock.store.credentials().find((c) => c.token === A)?.id;
      return {
        skills: state.skills.filter(
          (s: { owner_credential_id: number }) => s.owner_credential_id === ownerId,
        ),
        chats: state.chats.filter((c: { owner_credential_id: number }) => c.owner_credential_id === ownerId),
        turns: state.turns.filter((t: { credential_id: number }) => t.credential_id === ownerId),
        interactions: state.interactions,
      };
    };
    expect(mine(snapshot())).toEqual(mine(before));

    // And A can still do all of it.
    await interaction.approveAll();
    let end = await iterator.next();
    while (!end.done && end.value.type !== 'completed') end = await iterator.next();
    expect(end.value).toMatchObject({ type: 'completed' });
    expect((await a.skills.get(skill.id)).name).toBe('Secret');
    await target.close();
  });
});
