import { describe, expect, it } from 'vitest';
import { main, parseCommandLine, USAGE } from '../../src/mock/adapters/command.js';
import { SCOPES } from '../../src/mock/index.js';
import { fakeIo, firstLine } from './helpers.js';

describe('8 the convo-mock command (mock-conventions "Starting it")', () => {
  it('--port 0 prints ONE line with http://HOST:PORT, serves the tokens, and stops on SIGTERM', async () => {
    const { io, out, signals } = fakeIo();
    const exit = main(['--port', '0', '--token', 'a=skills:read', '--token', 'b@2'], io);
    const line = await firstLine(out);
    const url = /http:\/\/127\.0\.0\.1:(\d+)/.exec(line)?.[0];
    expect(url).toBeDefined();
    expect(url).not.toMatch(/:0$/);
    expect(out).toEqual([line]);

    const read = await fetch(`${url}/api/v1/skills`, { headers: { authorization: 'Bearer a' } });
    expect(read.status).toBe(200);
    const write = await fetch(`${url}/api/v1/skills`, {
      method: 'POST',
      headers: { authorization: 'Bearer a' },
      body: '{}',
    });
    expect(write.status).toBe(403);
    const byDefault = await fetch(`${url}/api/v1/skills`, {
      headers: { authorization: 'Bearer mock-token' },
    });
    expect(byDefault.status).toBe(401);

    signals.emit('SIGTERM');
    expect(await exit).toBe(0);
    expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
    await expect(fetch(`${url}/api/v1/skills`)).rejects.toThrow();
  });

  it('without --token: mock-token with every scope; stops on SIGINT', async () => {
    const { io, out, signals } = fakeIo();
    const exit = main(['--port', '0', '--host', '127.0.0.1'], io);
    const url = /http:\/\/[^\s]+/.exec(await firstLine(out))?.[0];
    const reply = await fetch(`${url}/api/v1/skills`, { headers: { authorization: 'Bearer mock-token' } });
    expect(reply.status).toBe(200);
    signals.emit('SIGINT');
    expect(await exit).toBe(0);
  });

  it('--help prints the usage and exits 0', async () => {
    const { io, out } = fakeIo();
    expect(await main(['--help'], io)).toBe(0);
    expect(out).toEqual([USAGE]);
    for (const flag of ['--host', '--port', '--token', '--ping-ms', '--interaction-ttl-ms']) {
      expect(USAGE).toContain(flag);
    }
  });

  it('bad arguments exit 2 with a message on stderr and nothing on stdout', async () => {
    for (const argv of [
      ['--bogus'],
      ['--token', 'a=skills:admin'],
      ['--port', 'x'],
      ['--port', '70000'],
      ['--ping-ms', '0'],
      ['stray'],
    ]) {
      const { io, out, err } = fakeIo();
      expect(await main(argv, io), argv.join(' ')).toBe(2);
      expect(out).toEqual([]);
      expect(err[0]).toMatch(/^convo-mock: /);
    }
  });

  it('--name names the --token just before it; one with no --token before it, twice, or out of bounds exits 2', async () => {
    expect(
      parseCommandLine([
        '--token',
        'alice',
        '--name',
        'Alice',
        '--token',
        'r=skills:read',
        '--name',
        'reader',
      ]),
    ).toEqual({
      help: false,
      server: {
        tokens: [
          { token: 'alice', scopes: [...SCOPES], userId: 1, name: 'Alice' },
          { token: 'r', scopes: ['skills:read'], userId: 1, name: 'reader' },
        ],
      },
    });
    expect(parseCommandLine(['--token', 'a', '--token', 'b', '--name', 'B'])).toMatchObject({
      server: { tokens: [{ token: 'a' }, { token: 'b', name: 'B' }] },
    });
    expect(USAGE).toContain('--name NAME');
    for (const argv of [
      ['--name', 'Alice', '--token', 'alice_secret'],
      ['--token', 'alice_secret', '--name', 'A', '--name', 'B'],
      ['--token', 'alice_secret', '--name', ''],
      ['--token', 'alice_secret', '--name', 'x'.repeat(65)],
      ['--token', 'alice_secret', '--name', 'tab\there'],
    ]) {
      const { io, out, err } = fakeIo();
      expect(await main(argv, io), argv.join(' ')).toBe(2);
      expect(out).toEqual([]);
      expect(err[0]).toMatch(/^convo-mock: .*--name/);
      expect(err.join('\n')).not.toContain('alice_secret');
    }
  });

  it('5 --allow restricts the --token just before it to an allowlist; one misplaced, twice or malformed exits 2', async () => {
    expect(
      parseCommandLine(['--token', 'r', '--allow', 'skills=', '--allow', 'libraries=2,1,2', '--token', 'a']),
    ).toMatchObject({
      server: { tokens: [{ token: 'r', allow: { skills: [], libraries: [2, 1] } }, { token: 'a' }] },
    });
    expect(parseCommandLine(['--token', 'a'])).toEqual({
      help: false,
      server: { tokens: [{ token: 'a', scopes: [...SCOPES], userId: 1 }] },
    });
    expect(USAGE).toContain('--allow KIND=IDS');
    for (const argv of [
      ['--allow', 'skills=', '--token', 'alice_secret'],
      ['--token', 'alice_secret', '--allow', 'skills=1', '--allow', 'skills=2'],
      ['--token', 'alice_secret', '--allow', 'files=1'],
      ['--token', 'alice_secret', '--allow', 'skills=0'],
      ['--token', 'alice_secret', '--allow', 'skills=1,'],
      ['--token', 'alice_secret', '--allow', 'skills'],
    ]) {
      const { io, out, err } = fakeIo();
      expect(await main(argv, io), argv.join(' ')).toBe(2);
      expect(out).toEqual([]);
      expect(err[0]).toMatch(/^convo-mock: .*--allow/);
      expect(err.join('\n')).not.toContain('alice_secret');
    }
  });

  it('5 a credential restricted with --allow skills= is refused a skill creation (403 api_v1_resource_policy_create_denied)', async () => {
    const { io, out, signals } = fakeIo();
    const exit = main(
      ['--port', '0', '--token', 'restricted-token', '--allow', 'skills=', '--no-inspector'],
      io,
    );
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(await firstLine(out))?.[0];
    try {
      const answer = await fetch(`${url}/api/v1/skills`, {
        method: 'POST',
        headers: { authorization: 'Bearer restricted-token', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x', instructions: 'y' }),
      });
      expect(answer.status).toBe(403);
      expect(await answer.json()).toMatchObject({ message_code: 'api_v1_resource_policy_create_denied' });
    } finally {
      signals.emit('SIGTERM');
      expect(await exit).toBe(0);
    }
  });

  it('an unknown scope names itself on stderr', async () => {
    const { io, err } = fakeIo();
    await main(['--token', 'a=skills:admin'], io);
    expect(err[0]).toContain('unknown scope "skills:admin"');
  });

  it('a port in use exits 1', async () => {
    const first = fakeIo();
    const exit = main(['--port', '0'], first.io);
    const port = /:(\d+)/.exec(await firstLine(first.out))?.[1] ?? '';
    const second = fakeIo();
    expect(await main(['--port', port], second.io)).toBe(1);
    expect(second.err[0]).toMatch(/EADDRINUSE/);
    first.signals.emit('SIGTERM');
    await exit;
  });

  it('serves the inspector at / and says so, unless --no-inspector (then / is the API 404)', async () => {
    for (const [flags, status, hint] of [
      [[], 200, true],
      [['--no-inspector'], 404, false],
    ] as const) {
      const { io, out, signals } = fakeIo();
      const exit = main(['--port', '0', ...flags], io);
      const line = await firstLine(out);
      expect(line.includes('(open it in a browser: the inspector)')).toBe(hint);
      const url = /http:\/\/[^\s]+/.exec(line)?.[0];
      expect((await fetch(`${url}/`)).status).toBe(status);
      signals.emit('SIGTERM');
      expect(await exit).toBe(0);
    }
  });

  it('parses every flag: defaults, repeated --token, --ping-ms, --interaction-ttl-ms, --no-inspector', () => {
    expect(parseCommandLine([])).toEqual({ help: false, server: { tokens: [] } });
    expect(parseCommandLine(['--no-inspector'])).toEqual({
      help: false,
      server: { tokens: [], inspector: false },
    });
    expect(
      parseCommandLine([
        '--host',
        '0.0.0.0',
        '--port',
        '4011',
        '--token',
        'a',
        '--token',
        'b=@4',
        '--ping-ms',
        '50',
        '--interaction-ttl-ms',
        '200',
      ]),
    ).toEqual({
      help: false,
      server: {
        host: '0.0.0.0',
        port: 4011,
        tokens: [
          { token: 'a', scopes: [...SCOPES], userId: 1 },
          { token: 'b', scopes: [], userId: 4 },
        ],
        pingMs: 50,
        interactionTtlMs: 200,
      },
    });
  });
});
