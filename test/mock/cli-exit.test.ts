import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { withDeadline } from '../support/leaks.js';

// The built command, as integrators run it: a pending interaction holds a timer for its whole lifetime,
// which must not keep the process alive after SIGTERM.
const cli = join(import.meta.dirname, '..', '..', 'dist', 'mock', 'cli.js');

it('convo-mock exits on SIGTERM while an interaction is pending', async () => {
  const child = spawn(process.execPath, [cli, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const match = /http:\/\/127\.0\.0\.1:\d+/.exec(chunk.toString());
        if (match) resolve(match[0]);
      });
      child.once('exit', () => reject(new Error('convo-mock exited before listening')));
    });
    const response = await fetch(`${url}/api/v1/chats/${crypto.randomUUID()}/messages/stream`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer mock-token',
        'idempotency-key': 'k',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ content: '[[mock:tool_approval]]' }),
    });
    const reader = response.body!.getReader();
    let seen = '';
    while (!seen.includes('message.action_required'))
      seen += new TextDecoder().decode((await reader.read()).value);
    child.kill('SIGTERM');
    // A process the interaction's timer kept alive would run for its lifetime (110 s); 15 s leaves a busy
    // machine room to exit.
    const code = await withDeadline(exited, 15_000, 'convo-mock after SIGTERM');
    expect(code).toBe(0);
    await reader.cancel().catch(() => {});
  } finally {
    child.kill('SIGKILL');
  }
});
