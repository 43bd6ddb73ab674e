import { describe, expect, it } from 'vitest';
import { Client } from '../../src/index.js';
import { TURN_DETAIL_CHARS, TURN_PREVIEW_CHARS } from '../../src/mock/inspector/turn-view.js';
import { useMockServer } from '../support/mock-server.js';

// The inspector's state is bounded per turn, the whole text is one request away, and a poll given the
// cursor of the last one carries only what changed.
const TOKEN = 'tok_bounds_secret_6e1f';

describe('the inspector state: bounded per turn, answered by what changed', () => {
  const server = useMockServer({ inspector: true, tokens: [{ token: TOKEN }] });
  const state = async (query = '') => {
    const reply = await fetch(`${server.url}/_inspector/state${query}`);
    const text = await reply.text();
    return { bytes: new TextEncoder().encode(text).length, json: JSON.parse(text) };
  };

  it('three turns of 100,000 words leave one full poll under 2 MiB; each text is cut with its length, whole one request away', async () => {
    const client = new Client({ baseUrl: server.url, token: TOKEN });
    const answers: string[] = [];
    // Sent synchronously: streaming 100,000 deltas costs the client seconds, and the state is the same.
    for (let i = 0; i < 3; i++) {
      const turn = await client.turns.send(crypto.randomUUID(), {
        content: `Tell me ${i} [[mock:words n=100000]]`,
      });
      answers.push(turn.content);
    }
    // A streamed turn whose folded text passes the timeline's own cap: its text entry is cut in the state too.
    const streamed = await client.turns
      .stream(crypto.randomUUID(), { content: 'Stream [[mock:words n=12000]]' })
      .finalTurn();
    answers.push(streamed.content);
    const full = await state();
    expect(full.bytes).toBeLessThan(2 * 1024 * 1024);
    expect(full.json.turns).toHaveLength(4);
    expect(full.json.turns[0].streams[0].entries.some((e: { type: string }) => e.type === 'text')).toBe(true);
    for (const turn of full.json.turns) {
      expect(turn.content.text.length).toBeLessThanOrEqual(TURN_PREVIEW_CHARS);
      expect(turn.content).toMatchObject({ truncated: true, chars: answers[turn.id - 1]?.length });
      for (const stream of turn.streams)
        for (const entry of stream.entries)
          if (entry.type === 'text') expect(entry.text.length).toBeLessThanOrEqual(TURN_PREVIEW_CHARS);
    }
    const reply = await fetch(`${server.url}/_inspector/turn?id=1`);
    const detail = await reply.json();
    expect(answers[0]?.length).toBeLessThan(TURN_DETAIL_CHARS);
    expect(detail.content).toEqual({ text: answers[0], chars: answers[0]?.length, truncated: false });
    expect(detail.prompt.text).toBe('Tell me 0 [[mock:words n=100000]]');
    expect((await fetch(`${server.url}/_inspector/turn?id=99`)).status).toBe(400);
  }, 60_000);

  it('a poll with the last cursor carries nothing unchanged, then only the turn and requests that changed', async () => {
    const client = new Client({ baseUrl: server.url, token: TOKEN });
    await client.turns.stream(crypto.randomUUID(), { content: 'one [[mock:words n=3]]' }).finalTurn();
    const first = (await state()).json;
    expect(first.full).toBe(true);
    const quiet = (await state(`?since=${first.cursor}`)).json;
    expect(quiet).toMatchObject({ full: false, turns: [], cursor: first.cursor });
    expect(quiet.requests).toBeUndefined();
    expect(quiet.turnIds).toEqual(first.turnIds);

    const next = await client.turns
      .stream(crypto.randomUUID(), { content: 'two [[mock:words n=3]]' })
      .finalTurn();
    const changed = (await state(`?since=${quiet.cursor}`)).json;
    expect(changed.turns.map((turn: { id: number }) => turn.id)).toEqual([next.id]);
    expect(changed.turnIds[0]).toBe(next.id);
    expect(changed.requests[0]).toMatchObject({ method: 'POST', status: 200 });

    // A cursor of another inspector, or malformed, is none: everything is answered.
    for (const cursor of ['00000000-1', 'x', `${first.cursor}9`]) {
      const again = (await state(`?since=${cursor}`)).json;
      expect(again.full, cursor).toBe(true);
      expect(again.turns.length).toBe(again.turnIds.length);
    }
  });
});
