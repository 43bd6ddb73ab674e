/**
 * Where a client call's error surfaces, by the rule in docs/client.md ("Errors"): a promise rejects, a stream or async iterable
 * fails at its first read. Calls `call` (a synchronous throw is reported as `threw`), then awaits the
 * promise or reads the first item; `returned` says which kind of value the call gave.
 */
export async function surfaced(
  call: () => unknown,
): Promise<{ threw: boolean; returned: 'promise' | 'iterable' | 'other'; error: unknown }> {
  let value: unknown;
  try {
    value = call();
  } catch (error) {
    return { threw: true, returned: 'other', error };
  }
  const thenable = typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
  const iterable =
    typeof (value as AsyncIterable<unknown> | undefined)?.[Symbol.asyncIterator] === 'function';
  try {
    if (thenable) await value;
    else if (iterable) await (value as AsyncIterable<unknown>)[Symbol.asyncIterator]().next();
    return {
      threw: false,
      returned: thenable ? 'promise' : iterable ? 'iterable' : 'other',
      error: undefined,
    };
  } catch (error) {
    return { threw: false, returned: thenable ? 'promise' : 'iterable', error };
  }
}
