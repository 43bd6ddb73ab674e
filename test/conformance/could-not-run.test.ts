import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/conformance/command.js';
import { runConformance } from '../../src/conformance/index.js';

// "Could not run" is not "does not conform": a service that never answers gets exit 3 and no report of
// chats "left behind" that were never created.

/** A loopback server answering the first `answered` requests like an empty list, then cutting every connection. */
async function dropping(answered: number) {
  let seen = 0;
  const server = createServer((request, response) => {
    if (seen++ < answered) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          status: 'success',
          message: 'ok',
          message_code: 'api_v1_ok',
          data: [],
          meta: { request_id: crypto.randomUUID(), page: 1, size: 1, total: 0 },
        }),
      );
      return;
    }
    request.socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(resolve);
    });
  return { url, close };
}

describe('convo-conformance against a service that does not answer', () => {
  it('an unreachable URL is a ConnectionError before anything is sent, and the command exits 3 ("could not run"), not 1', async () => {
    const gone = await dropping(0);
    await gone.close();
    await expect(runConformance({ url: gone.url, tokens: { main: 'tok-main' } })).rejects.toMatchObject({
      name: 'ConnectionError',
      message: expect.stringMatching(
        /^the service did not answer GET \/api\/v1\/chats\?size=1 \(no answer: .*\): nothing was checked$/,
      ),
    });
    let out = '';
    const io = { out: (text: string) => (out += `${text}\n`), err: (text: string) => (out += `${text}\n`) };
    const code = await main(['--url', gone.url, '--token', 'tok-main'], io, undefined, {});
    expect(code).toBe(3);
    expect(out).toMatch(/^convo-conformance: could not run: the service did not answer/);
    expect(out).not.toMatch(/left behind|FAIL|tok-main/);
  });

  it('4 a service that stops answering mid-run lists no chat "left behind" that it never answered for', async () => {
    const service = await dropping(1);
    try {
      const report = await runConformance({
        url: service.url,
        tokens: { main: 'tok-main' },
        only: ['4.3', '7.3'],
      });
      expect(report.ok).toBe(false);
      expect(report.results.filter((result) => /left behind/.test(result.got ?? ''))).toEqual([]);
      expect(report.results.map((result) => result.title)).not.toContain('what the run created is deleted');
    } finally {
      await service.close();
    }
  });
});
