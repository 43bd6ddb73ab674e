import { describe, expect, it } from 'vitest';
import { toUIMessageStream } from '../../src/ai/index.js';
import { createManualClock } from '../../src/mock/index.js';
import { mockClient } from '../support/mock-client.js';

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('the read of a mapped turn', () => {
  it('is closed when the turn ends: no idle watchdog is left to keep a server process alive', async () => {
    // A manual clock: the mock sets no timer, so the only one the read can leave is its watchdog.
    const { client } = mockClient({ clock: createManualClock() });
    const { id } = await client.chats.create({});
    const before = timers();
    const chunks: string[] = [];
    for await (const chunk of toUIMessageStream(client.turns.stream(id, { content: 'hello' })))
      chunks.push(chunk.type);
    await new Promise((resolve) => setImmediate(resolve));
    expect(chunks.at(-1)).toBe('finish');
    expect(timers()).toBe(before);
  });
});
