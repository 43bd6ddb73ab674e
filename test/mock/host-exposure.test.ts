import { request as httpRequest } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { exposedWarning, main } from '../../src/mock/adapters/command.js';
import { isLoopback, reachableHosts } from '../../src/mock/adapters/host-names.js';
import { useMockServer } from '../support/mock-server.js';
import { fakeIo, firstLine } from './helpers.js';

/** GET `path` of `url` with `Host: host` (node:http lets a test set it; fetch does not). */
function statusWithHost(url: string, path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}${path}`, { headers: { host } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end();
  });
}

const machine = { addresses: ['192.168.1.20', 'fe80::1', '127.0.0.1', '::1'], hostname: 'Dev-Box' };

describe('the names a server is reached by', () => {
  it('loopback: its address and localhost, nothing else', () => {
    expect(reachableHosts('http://127.0.0.1:4010', machine)).toEqual(['127.0.0.1:4010', 'localhost:4010']);
    expect(reachableHosts('http://[::1]:4010', machine)).toEqual(['[::1]:4010', 'localhost:4010']);
  });

  it('a wildcard bind: loopback names, every address of the machine and its name', () => {
    expect(reachableHosts('http://0.0.0.0:4010', machine)).toEqual([
      '0.0.0.0:4010',
      'localhost:4010',
      '127.0.0.1:4010',
      '[::1]:4010',
      '192.168.1.20:4010',
      '[fe80::1]:4010',
      'dev-box:4010',
    ]);
    expect(reachableHosts('http://[::]:80', machine)).toContain('192.168.1.20');
  });

  it('another address: that address and the machine name, not loopback', () => {
    expect(reachableHosts('http://192.168.1.20:4010', machine)).toEqual([
      '192.168.1.20:4010',
      'dev-box:4010',
    ]);
  });

  it('what counts as loopback', () => {
    for (const name of ['127.0.0.1', '127.1.2.3', '[::1]', 'localhost', 'LOCALHOST'])
      expect(isLoopback(name)).toBe(true);
    for (const name of ['0.0.0.0', '[::]', '192.168.1.20', 'localhost.evil.test', '127.0.0.1.evil.test'])
      expect(isLoopback(name)).toBe(false);
  });
});

describe('startMockServer on 0.0.0.0 with the inspector', () => {
  const server = useMockServer({ host: '0.0.0.0', inspector: true });
  let port: string;
  beforeAll(() => {
    port = new URL(server.url).port;
  });

  it('answers to loopback names, the machine own addresses and its host name', async () => {
    const addresses = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .filter((info) => info.family === 'IPv4')
      .map((info) => info.address);
    const names = ['127.0.0.1', 'localhost', ...addresses, hostname()];
    for (const name of names) {
      expect([name, await statusWithHost(server.url, '/_inspector/state', `${name}:${port}`)]).toEqual([
        name,
        200,
      ]);
    }
  });

  it('still refuses a foreign Host (DNS rebinding): 403', async () => {
    for (const host of [
      `evil.test:${port}`,
      `localhost.evil.test:${port}`,
      `127.0.0.1:${Number(port) + 1}`,
    ]) {
      expect([host, await statusWithHost(server.url, '/_inspector/state', host)]).toEqual([host, 403]);
    }
  });
});

describe('convo-mock --host', () => {
  async function run(host: string) {
    const { io, out, err, signals } = fakeIo();
    const exit = main(['--host', host, '--port', '0'], io);
    await firstLine(out);
    signals.emit('SIGTERM');
    expect(await exit).toBe(0);
    return { out, err };
  }

  it('0.0.0.0 prints one clear warning on stderr; stdout keeps its one line', async () => {
    const { out, err } = await run('0.0.0.0');
    expect(out).toHaveLength(1);
    expect(err).toEqual([exposedWarning('0.0.0.0')]);
    expect(err[0]).toMatch(/^convo-mock: warning: listening on 0\.0\.0\.0, which is not loopback/);
    expect(err[0]).toContain('--host 127.0.0.1');
  });

  it('127.0.0.1 and localhost print no warning', async () => {
    for (const host of ['127.0.0.1', 'localhost']) expect((await run(host)).err).toEqual([]);
  });
});
