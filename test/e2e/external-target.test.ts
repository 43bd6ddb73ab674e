import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveMembers, startCommandServer } from '../support/command-server.js';
import { turnEnded, viaCommand } from './targets.js';

// The external target as CONVO_MOCK_CMD starts it, here with the built convo-mock behind a wrapper process
// that passes no signal on: the case where stopping only the spawned process left servers running.
const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist/mock/cli.js');
const wrapper = join(import.meta.dirname, 'fixtures/wrapper.mjs');
const command = [process.execPath, wrapper, process.execPath, cli]
  .map((part) => JSON.stringify(part))
  .join(' ');

describe('the external target of CONVO_MOCK_CMD', () => {
  it('needs the built command (npm run build)', () => {
    expect(existsSync(cli)).toBe(true);
  });

  it('conventions: it passes --ping-ms and --interaction-ttl-ms, so pings and expiry come within the test', async () => {
    const target = await viaCommand(command);
    try {
      const chatId = crypto.randomUUID();
      const stream = target
        .client()
        .turns.stream(chatId, { content: '[[mock:slow ms=300]] [[mock:words n=1]]' }, { pings: true });
      const types: string[] = [];
      for await (const event of stream) types.push(event.type);
      expect(types).toContain('ping');

      const paused = target.client().turns.stream(chatId, { content: '[[mock:plan_approval]]' });
      let actionId = '';
      for await (const event of paused) {
        if (event.type !== 'action_required') continue;
        actionId = event.interaction.action_id;
        break;
      }
      await turnEnded(target, chatId);
      const late = await target.raw(`/api/v1/chats/${chatId}/actions/respond-plan`, {
        method: 'POST',
        body: { action_id: actionId, action: 'approve' },
      });
      expect([late.status, late.body.message_code]).toEqual([404, 'api_v1_action_not_found']);
    } finally {
      await target.close();
    }
  });

  it('stops what it started: after close no process of its group is left and the URL refuses connections', async () => {
    const target = await viaCommand(command);
    // The wrapper and the server behind it.
    expect(liveMembers(target.group).length).toBeGreaterThanOrEqual(2);
    expect((await target.raw('/api/v1/skills')).status).toBe(200);
    await target.close();
    expect(liveMembers(target.group)).toEqual([]);
    await expect(fetch(`${target.url}/api/v1/skills`)).rejects.toThrow();
  });

  it('a command that exits before printing its URL fails with its exit code, leaving nothing behind', async () => {
    const failing = startCommandServer(`${JSON.stringify(process.execPath)} -e "process.exit(3)"`, []);
    await expect(failing).rejects.toThrow(/exited with 3/);
  });
});
