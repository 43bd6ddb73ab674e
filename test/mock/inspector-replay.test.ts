import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/index.js';
import { createMock, type FakeModel } from '../../src/mock/index.js';
import { errorResponse, mswHandlers } from '../../src/mock/msw.js';
import { mockClient } from '../support/mock-client.js';
import { withMockServer } from '../support/mock-server.js';

// The recipe of docs/inspector.md: a turn exported from the inspector as HAR, replayed as an msw override or as a
// scripted model.
interface HarEntry {
  request: { method: string; url: string };
  response: { status: number; content: { text: string; mimeType: string } };
  _convo: { messageCode: string | null; events?: Array<{ event: string; data: string }> };
}

describe('a turn exported as HAR, replayed in a test', () => {
  let entries: HarEntry[] = [];
  let recorded = '';
  const msw = setupServer();

  beforeAll(async () => {
    await withMockServer({ inspector: true }, async (server) => {
      const client = new Client({ baseUrl: server.url, token: 'mock-token' });
      const turn = await client.turns
        .stream(crypto.randomUUID(), { content: 'Hi [[mock:words n=5]] [[mock:failover]]' })
        .finalTurn();
      recorded = turn.content;
      server.mock.faults.add({
        route: 'send',
        respond: { status: 409, code: 'api_v1_chat_busy', data: { message_id: 1 } },
      });
      await client.turns.send(crypto.randomUUID(), { content: 'x' }).catch(() => {});
      entries = (await (await fetch(`${server.url}/_inspector/har`)).json()).log.entries;
    });
    msw.listen();
  });
  afterAll(() => msw.close());

  it('as an msw override: the stream replayed byte for byte gives the same turn', async () => {
    const entry = entries.find((e) => e.request.url.endsWith('/messages/stream'))!;
    const mock = createMock();
    msw.resetHandlers(
      http.post(
        'http://convo.mock/api/v1/chats/:chatId/messages/stream',
        () =>
          new HttpResponse(entry.response.content.text, {
            status: entry.response.status,
            headers: { 'content-type': entry.response.content.mimeType },
          }),
        { once: true },
      ),
      ...mswHandlers(mock),
    );
    const client = new Client({ baseUrl: 'http://convo.mock', token: 'mock-token' });
    const turn = await client.turns.stream(crypto.randomUUID(), { content: 'anything' }).finalTurn();
    expect(turn.content).toBe(recorded);
  });

  it('as an msw override: an error entry becomes errorResponse with its message_code', async () => {
    const entry = entries.find((e) => e.response.status === 409)!;
    msw.resetHandlers(
      http.post('http://convo.mock/api/v1/chats/:chatId/messages', () =>
        errorResponse({
          status: entry.response.status,
          code: entry._convo.messageCode!,
          data: JSON.parse(entry.response.content.text).data,
        }),
      ),
    );
    const client = new Client({ baseUrl: 'http://convo.mock', token: 'mock-token' });
    await expect(client.turns.send(crypto.randomUUID(), { content: 'x' })).rejects.toMatchObject({
      status: 409,
      code: 'api_v1_chat_busy',
    });
  });

  it('as a scripted model: its deltas, replace included, make the same answer', async () => {
    const entry = entries.find((e) => e.request.url.endsWith('/messages/stream'))!;
    const deltas = entry._convo
      .events!.filter((e) => e.event === 'message.delta')
      .map((e) => JSON.parse(e.data) as { text: string; replace: boolean });
    const model: FakeModel = async function* () {
      for (const delta of deltas) yield { type: delta.replace ? 'replace' : 'text', text: delta.text };
    };
    const { client } = mockClient({ model });
    const turn = await client.turns.stream(crypto.randomUUID(), { content: 'anything' }).finalTurn();
    expect(turn.content).toBe(recorded);
  });
});
