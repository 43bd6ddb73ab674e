import { describe, expect, it, vi } from 'vitest';
import type { TransportSettings } from '../../src/http/call.js';
import { SendLoader } from '../../src/http/send-loader.js';
import { ConvoError, ValidationError } from '../../src/index.js';

/** ky's loader (`http/send-loader.ts`): the client's `SendOnce`, built once with the first request. */

const settings = { unset: undefined } as unknown as TransportSettings;

/** A `send-once.ts` whose `sendOnce` hands out a new function each time it is called. */
function module() {
  const sendOnce = vi.fn(() => async () => new Response());
  return { sendOnce } as unknown as typeof import('../../src/http/send-once.js') & {
    sendOnce: typeof sendOnce;
  };
}

describe('the SendOnce loader', () => {
  it('builds the SendOnce once, with the settings and the hook failures; ready once built', async () => {
    const loaded = module();
    const loader = new SendLoader(settings, async () => loaded);
    expect(loader.ready).toBeUndefined();
    const [first, second] = await Promise.all([loader.load(), loader.load()]);
    expect(first).toBe(second);
    expect(loader.ready).toBe(first);
    expect(await loader.load()).toBe(first);
    expect(loaded.sendOnce).toHaveBeenCalledTimes(1);
    expect(loaded.sendOnce).toHaveBeenCalledWith(settings, {
      threw: expect.any(Function),
      refused: expect.any(Function),
    });
  });

  it('a client without a base URL or token fails with what it lacks, before loading anything', async () => {
    const unset = new ValidationError([{ field: 'baseUrl', message: 'is required' }]);
    const load = vi.fn(async () => module());
    const loader = new SendLoader({ ...settings, unset }, load);
    await expect(loader.load()).rejects.toBe(unset);
    expect(load).not.toHaveBeenCalled();
  });

  it('an import that failed is a ConvoError naming ky, and the next call tries again', async () => {
    const cause = new Error('no chunk');
    const load = vi.fn().mockRejectedValueOnce(cause).mockResolvedValueOnce(module());
    const loader = new SendLoader(settings, load);
    const error = await loader.load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConvoError);
    expect(error).toMatchObject({ message: 'could not load ky: no chunk', cause });
    await expect(loader.load()).resolves.toBeTypeOf('function');
    expect(load).toHaveBeenCalledTimes(2);
    const text = await new SendLoader(settings, () => Promise.reject('gone')).load().catch((e: unknown) => e);
    expect((text as Error).message).toBe('could not load ky: gone');
  });
});
