import { describe, expect, it, vi } from 'vitest';
import type * as Errors from '../../src/errors/index.js';

/** A fresh copy of the errors module: what a second build or entry of the package carries. */
async function copyOfErrors(): Promise<typeof Errors> {
  vi.resetModules();
  return import('../../src/errors/index.js');
}

/** Every error class the module exports, by name. */
function classes(errors: typeof Errors): [string, abstract new (...args: never) => Error][] {
  return Object.entries(errors as Record<string, unknown>).filter(
    (entry): entry is [string, abstract new (...args: never) => Error] =>
      typeof entry[1] === 'function' && entry[1].prototype instanceof Error,
  );
}

describe('one class per error across copies of the package', () => {
  it('an error of one copy is an instance of exactly the classes of the other copy that it is of its own', async () => {
    const a = await copyOfErrors();
    const b = await copyOfErrors();
    expect(a.NotFoundError).not.toBe(b.NotFoundError);
    const all = classes(a);
    expect(all.length).toBeGreaterThan(20);
    for (const [name, own] of all) {
      const instance = Object.create(own.prototype) as Error;
      for (const [other, ownOther] of all) {
        const otherCopy = (b as unknown as Record<string, typeof ownOther>)[other] as typeof ownOther;
        expect(instance instanceof otherCopy, `${name} instanceof ${other} (other copy)`).toBe(
          instance instanceof ownOther,
        );
      }
    }
  });

  it('a thrown error keeps its identity across copies, and its own class still matches', async () => {
    const a = await copyOfErrors();
    const b = await copyOfErrors();
    const error = new a.ValidationError([{ field: 'chat_id', message: 'must be a UUID' }]);
    expect(error).toBeInstanceOf(b.ValidationError);
    expect(error).toBeInstanceOf(b.ConvoError);
    expect(error).not.toBeInstanceOf(b.ApiError);
    expect(error).toBeInstanceOf(a.ValidationError);
    expect(new Error('plain')).not.toBeInstanceOf(b.ConvoError);
    for (const value of [null, undefined, 'ValidationError', 42, {}])
      expect(value instanceof b.ConvoError).toBe(false);
  });

  it("an integrator's own subclass matches only its own instances, and they match the SDK's classes", async () => {
    const a = await copyOfErrors();
    const b = await copyOfErrors();
    class MyNotFound extends a.NotFoundError {}
    const sdk = Object.create(b.NotFoundError.prototype) as Error;
    expect(sdk).not.toBeInstanceOf(MyNotFound);
    const mine = Object.create(MyNotFound.prototype) as Error;
    expect(mine).toBeInstanceOf(MyNotFound);
    expect(mine).toBeInstanceOf(b.NotFoundError);
    expect(mine).toBeInstanceOf(b.ApiError);
    expect(mine).not.toBeInstanceOf(b.ConflictError);
  });
});
