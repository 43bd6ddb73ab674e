/**
 * A value built on its first use, then kept: the contract's schemas are built this way, so that importing
 * the client builds none of them (zod's constructors were most of a cold import's own work) and each is
 * built once, by the first call that checks with it. Each schema module also exports its schema as a value
 * (`ChatSchema`, its getter's result, the call annotated pure) for `convo-sdk/schemas` and the mock: a bundle
 * that does not read the value drops it, and the value is the same object the getter returns.
 */
export function lazy<T extends object>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}
