import { describe, expect, it } from 'vitest';
import type { FakeModel, MockServer } from '../../src/mock/index.js';
import { BODY_CAP } from '../../src/mock/inspector/exchanges.js';
import { TokenMask } from '../../src/mock/inspector/masking.js';
import { withMockServer } from '../support/mock-server.js';

// Every configured token is masked wherever it reaches the inspector: headers, URLs, bodies whole or cut,
// JSON-escaped forms, metadata, idempotency keys, names, prompts, contents and stream events.
const SHORT = 'Zq5kW';
const LONG = 'Kw7ZpQ2rVb9XyL4mNc8TgH3jFd6SaE1uYo5RiP0n';
const json = { 'content-type': 'application/json' };

/** `token` with every character JSON-escaped as `\uXXXX`. */
const escaped = (token: string) =>
  [...token].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
/** `token` with every character percent-encoded. */
const percent = (token: string) =>
  [...token].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');

/** Sends `token` through every place it can reach the inspector; returns the turn ids made. */
async function spread(server: MockServer, token: string): Promise<void> {
  const auth = { authorization: `Bearer ${token}` };
  const stream = async (content: string, headers: Record<string, string> = {}, metadata?: unknown) => {
    const reply = await fetch(`${server.url}/api/v1/chats/${crypto.randomUUID()}/messages/stream`, {
      method: 'POST',
      headers: {
        ...auth,
        ...json,
        accept: 'text/event-stream',
        'idempotency-key': `key-${token}`,
        ...headers,
      },
      body: JSON.stringify({ content, ...(metadata !== undefined && { metadata }) }),
    });
    expect(await reply.text()).toContain('message.completed');
  };
  // Metadata (a value and a key), the idempotency key, a header, and the fake model's echo of the prompt.
  await stream(`echo ${token} please`, { 'x-note': `n ${token}` }, { note: token, [token]: 1 });
  // A body cut at BODY_CAP with the token across the cut; the model echoes it in one event past its cut.
  const before = BODY_CAP - '{"content":"'.length - 3;
  await stream(`${'x'.repeat(before)}${token}${'y'.repeat(1000)}`, {
    'idempotency-key': crypto.randomUUID(),
  });
  // A skill name JSON-escaped character by character (whole and parsed, and in a body past the cap).
  await fetch(`${server.url}/api/v1/skills`, {
    method: 'POST',
    headers: { ...auth, ...json },
    body: `{"name":"${escaped(token)}","instructions":"i"}`,
  });
  await fetch(`${server.url}/api/v1/skills`, {
    method: 'POST',
    headers: { ...auth, ...json },
    body: `{"name":"a ${escaped(token)}","instructions":"${'z'.repeat(BODY_CAP + 100)}"}`,
  });
  // A chat name, and URLs: a path segment, query values plain and percent-encoded character by character.
  await fetch(`${server.url}/api/v1/chats`, {
    method: 'POST',
    headers: { ...auth, ...json },
    body: JSON.stringify({ name: `chat ${token}` }),
  });
  await fetch(`${server.url}/api/v1/chats/${token}/turns?q=${token}&p=${percent(token)}`, { headers: auth });
}

/** Every answer of the inspector about what `spread` sent: state, each exchange, each turn, the HAR. */
async function answers(server: MockServer): Promise<string[]> {
  const read = async (path: string) => {
    const reply = await fetch(`${server.url}${path}`);
    expect(reply.status, path).toBe(200);
    return reply.text();
  };
  const state = await read('/_inspector/state');
  const { requests, turns } = JSON.parse(state);
  const out = [state, await read('/_inspector/har')];
  for (const { id } of requests) out.push(await read(`/_inspector/exchange?id=${id}`));
  for (const { id } of turns) out.push(await read(`/_inspector/turn?id=${id}`));
  return out;
}

describe('the inspector masks every configured token everywhere', () => {
  for (const token of [SHORT, LONG]) {
    it(`masks a token of ${token.length} characters in headers, URLs, bodies whole and cut, escapes, metadata, keys, names and events`, async () => {
      await withMockServer({ inspector: true, tokens: [{ token }] }, async (server) => {
        await spread(server, token);
        const texts = await answers(server);
        expect(texts.length).toBe(10);
        // The start a cut would keep: 12 characters of a long token, all but one of a short one.
        const start = token.slice(0, Math.min(12, token.length - 1));
        for (const text of texts) {
          expect(text).not.toContain(token);
          expect(text).not.toContain(start);
          expect(text).not.toContain(escaped(token).replaceAll('\\', '\\\\'));
          expect(text).not.toContain(escaped(token));
          expect(text).not.toContain(percent(token));
        }
        const all = texts.join('\n');
        expect(all).toContain('[redacted]');
        // What was masked is still there around it: the metadata's other parts, the echo, the cut body.
        expect(all).toContain('echo [redacted] please');
        const state = JSON.parse(texts[0] as string);
        const [cut] = state.turns;
        expect(cut.prompt).toMatchObject({ truncated: true, chars: BODY_CAP - 15 + token.length + 1000 });
        const [echo] = state.turns.slice(-1);
        expect(echo.metadata).toEqual({ note: '[redacted]', '[redacted]': 1 });
        expect(echo.key).toBe('key-[redacted]');
      });
    });
  }

  it('masks the default mock-token when it is the credential', async () => {
    await withMockServer({ inspector: true }, async (server) => {
      await spread(server, 'mock-token');
      for (const text of await answers(server)) expect(text).not.toContain('mock-token');
    });
  });

  it('a capture cut inside a token keeps none of it, and a whole short token in a URL is masked', () => {
    const mask = new TokenMask([LONG, 'ab']);
    const cut = mask.cut(`${'x'.repeat(10)}${LONG.slice(0, 12)}`, 100, false);
    expect(cut).toEqual({ text: 'x'.repeat(10), chars: 22, truncated: true });
    expect(mask.cut(`${'x'.repeat(10)}${LONG}`, 15).text).toBe(`${'x'.repeat(10)}[reda`);
    expect(mask.url(new URL('http://h/a/ab/c?ab=ab&x=abc')).href).toBe(
      'http://h/a/%5Bredacted%5D/c?%5Bredacted%5D=%5Bredacted%5D&x=abc',
    );
    expect(mask.body(`{"a":"${escaped(LONG)}"}`, true)).toBe('{"a":"[redacted]"}');
    expect(mask.body(`{"a":"x\\/${escaped(LONG)}`, false)).toBe('{"a":"x/[redacted]');
    expect(mask.body('{"a":"\\u0022"}', true)).toBe('{"a":"\\u0022"}');
  });
});

describe('the HAR export masks what no single piece shows whole', () => {
  const TOKEN = 'tok+SECRET/abc=xyz';

  it('5: a token with + in a query string, which a query decodes to a space, is masked in the URL and queryString', async () => {
    await withMockServer({ inspector: true, tokens: [{ token: TOKEN }] }, async (server) => {
      await fetch(
        `${server.url}/api/v1/skills?q=${TOKEN}&r=${encodeURIComponent(TOKEN).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())}`,
        {
          headers: { authorization: `Bearer ${TOKEN}` },
        },
      );
      const har = await (await fetch(`${server.url}/_inspector/har`)).text();
      for (const shown of ['tok SECRET', 'tok+SECRET', 'SECRET/abc', 'SECRET%2Fabc', 'SECRET%2fabc'])
        expect(har, shown).not.toContain(shown);
      const [entry] = JSON.parse(har).log.entries;
      expect(entry.request.queryString).toEqual([
        { name: 'q', value: '[redacted]' },
        { name: 'r', value: '[redacted]' },
      ]);
    });
  });

  it('6: a token the model writes across deltas is masked in the stream body: [redacted] where it starts, the rest dropped', async () => {
    const pieces = ['Your key is to', 'k+SEC', 'RET/abc=', 'xyz, keep it.'];
    const model: FakeModel = async function* () {
      for (const text of pieces) yield { type: 'text', text };
    };
    await withMockServer({ inspector: true, tokens: [{ token: TOKEN }], model }, async (server) => {
      const reply = await fetch(`${server.url}/api/v1/chats/${crypto.randomUUID()}/messages/stream`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, ...json, 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({ content: 'the key?' }),
      });
      expect(await reply.text()).toContain('message.completed');
      const har = await (await fetch(`${server.url}/_inspector/har`)).text();
      const entry = JSON.parse(har).log.entries.find((e: { request: { url: string } }) =>
        e.request.url.endsWith('/messages/stream'),
      );
      const deltas = (entry._convo.events as Array<{ event: string; data: string }>)
        .filter((event) => event.event === 'message.delta')
        .map((event) => JSON.parse(event.data).text);
      expect(deltas).toEqual(['Your key is [redacted]', '', '', ', keep it.']);
      for (const piece of pieces.slice(1, 3)) expect(entry.response.content.text).not.toContain(piece);
      expect(entry.response.content.text).not.toContain('is to"');
    });
  });
});
