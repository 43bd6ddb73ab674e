import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/conformance/command.js';
import { formatReport, runConformance } from '../../src/conformance/index.js';
import { MAX_PRINTED, sanitizerOf, serverTextOf } from '../../src/conformance/sanitize.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { type FaultProxy, type Passing, startFaultProxy } from './fault-proxy.js';

// Credentials of 5 and 40 characters, as short and as long as services issue them.
const SHORT = 'Ab3de';
const LONG = 'tok_0123456789abcdefghijABCDEFGHIJ-._~xyz';
const LIMITED = 'limited-reader';
const TOKENS = [SHORT, LONG, LIMITED];
/** Forges a PASS line, recolours, sets the title, and rings. */
const FORGE = '\x1b[2K\r\x1b[32mPASS  9.9  forged\x1b[0m\x1b]0;owned\x07\x9b31m\u202e';

/** A service that echoes the caller's token everywhere it can, wrapped in escape codes, and pads a code past 200,000 characters. */
function echoing(answer: Passing): Passing {
  const token = answer.token ?? 'none';
  if (answer.contentType.startsWith('text/event-stream')) {
    const text = JSON.stringify(`${FORGE}${token}`);
    return {
      ...answer,
      body: answer.body.replace(/"text":"[^"]*"/g, `"text":${text}`),
    };
  }
  if (!answer.contentType.includes('json')) return answer;
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  if (answer.status >= 400) body.message_code = `${FORGE}${token}${'x'.repeat(200_000)}`;
  else if (answer.call.startsWith('GET /api/v1/chat/catalog')) body.message_code = `${FORGE} ${token}`;
  body.echo = { token, header: `Bearer ${token}`, url: encodeURIComponent(token) };
  return { ...answer, body: JSON.stringify(body), contentType: answer.contentType };
}

let mock: MockServer;
let proxy: FaultProxy;
const tokens = { main: SHORT, other: LONG, limited: LIMITED };

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    tokens: [
      { token: SHORT },
      { token: LONG, scopes: ['chat:read', 'chat:write'], userId: 2 },
      { token: LIMITED, scopes: ['chat:read'] },
    ],
  });
  proxy = await startFaultProxy(mock.url, echoing);
});

afterAll(async () => {
  await proxy?.close();
  await mock?.close();
});

/** Fails the test if `text` shows a credential (in any form the redactor masks) or a control character. */
function expectClean(text: string, newlines: boolean) {
  for (const token of TOKENS) {
    expect(text).not.toContain(token);
    expect(text).not.toContain(encodeURIComponent(token));
  }
  const controls = [...text].filter((char) => {
    const code = char.codePointAt(0) ?? 0;
    return (code < 0x20 && !(newlines && code === 0x0a)) || (code >= 0x7f && code <= 0x9f) || code === 0x202e;
  });
  expect(controls).toEqual([]);
}

describe('the conformance output against a service that echoes tokens and injects escape codes', () => {
  it('the report, its text and its JSON show no token of 5 or 40 characters and no control character', async () => {
    const report = await runConformance({ url: proxy.url, tokens });
    expect(report.counts.fail).toBeGreaterThan(0);
    const text = formatReport(report);
    expectClean(text, true);
    expectClean(JSON.stringify(report), false);
    expect(text).toContain('[redacted]');
    // Nothing the service sent starts a line: every PASS line is a check of the kit's.
    expect(text).not.toMatch(/^PASS {2}9\.9/m);
    for (const line of text.split('\n')) expect(line.length).toBeLessThan(MAX_PRINTED + 100);
  });

  it('the command (tokens from the environment): stdout, stderr, --json and --junit show neither', async () => {
    let out = '';
    const io = { out: (text: string) => (out += `${text}\n`), err: (text: string) => (out += `${text}\n`) };
    const junit = join(tmpdir(), `conformance-${crypto.randomUUID()}.xml`);
    const env = { CONVO_API_TOKEN: SHORT, CONVO_API_TOKEN_OTHER: LONG, CONVO_API_TOKEN_LIMITED: LIMITED };
    const code = await main(['--url', proxy.url, '--json', '--junit', junit], io, undefined, env);
    expect(code).toBe(1);
    expectClean(out, true);
    const xml = await readFile(junit, 'utf8');
    expectClean(xml, true);
    expect(xml).toMatch(/<failure message="/);
  });

  it('a usage error after a token was given does not show it', async () => {
    let out = '';
    const io = { out: (text: string) => (out += text), err: (text: string) => (out += text) };
    const code = await main(['--token', LONG, '--only', '6', '--url', 'ftp://x'], io, undefined, {});
    expect(code).toBe(2);
    expect(out).toMatch(/url/);
    expectClean(out, true);
  });
});

describe('the sanitizers of server text (on the wire) and of the printed report', () => {
  const quoted = serverTextOf([SHORT, LONG]);
  const sanitize = sanitizerOf([SHORT, LONG]);

  it('strips escape sequences before masking, so a token split by one is still masked', () => {
    expect(sanitize(quoted(`a\x1b[31m${SHORT.slice(0, 2)}\x1b[0m${SHORT.slice(2)}b`))).toBe('a[redacted]b');
    expect(sanitize(quoted(`x\x1b]0;title\x07y\r\nz\u202e`))).toBe('xyz');
  });

  it('on the wire leaves a text without a token exactly as it came, and masks one glued to other words', () => {
    expect(quoted('a\nb \x1b[1mc')).toBe('a\nb \x1b[1mc');
    expect(quoted(`x${SHORT}y ${encodeURIComponent(LONG)}`)).toBe('x[redacted]y [redacted]');
    expect(serverTextOf([])('a\x1b')).toBe('a\x1b');
  });

  it('masks before it cuts: no cut leaves the start of a token', () => {
    const text = `${'a'.repeat(MAX_PRINTED - 3)}${LONG}`;
    const printed = sanitize(quoted(text));
    expect(printed).not.toContain(LONG.slice(0, 3));
    expect(printed).toMatch(/\.\.\. \(\d+ more characters\)$/);
  });

  it("the report's last net masks a token standing alone, never inside the kit's own words", () => {
    const words = sanitizerOf(['other', 'list']);
    expect(words("another credential's chat is not listed")).toBe("another credential's chat is not listed");
    expect(words('token other, "other" and list=other')).toBe(
      'token [redacted], "[redacted]" and [redacted]=[redacted]',
    );
    expect(sanitizerOf([])('plain')).toBe('plain');
  });
});

describe('a run whose credentials are common words', () => {
  it('5 prints the kit\'s own words whole ("another credential" with a credential other) and masks the server\'s echo', async () => {
    const words = await startMockServer({
      port: 0,
      tokens: [{ token: 'mock-token' }, { token: 'other', scopes: ['chat:read', 'chat:write'], userId: 2 }],
    });
    const echo = await startFaultProxy(words.url, (answer) =>
      answer.status === 404 && answer.token === 'other'
        ? { ...answer, status: 403, body: answer.body.replace('"api_v1_not_found"', '"sent by other"') }
        : answer,
    );
    try {
      const report = await runConformance({
        url: echo.url,
        tokens: { main: 'mock-token', other: 'other' },
        only: ['5'],
      });
      const text = formatReport(report);
      expect(text).toContain("another credential's chat is 404 api_v1_not_found, never 403");
      expect(text).not.toContain('an[redacted]');
      expect(text).toContain('got:      403 sent by [redacted]');
      expect(text).not.toMatch(/sent by other/);
    } finally {
      await echo.close();
      await words.close();
    }
  });
});
