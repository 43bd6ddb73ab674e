/**
 * One class per error, whichever copy of the SDK made it. `import` and `require` of the package load two
 * builds (ESM and CommonJS), and each entry (`convo-sdk/ai`, `/mock`, `/msw`, `/conformance`) may carry its
 * own: each copy has its own classes, so a plain `instanceof` fails across them. Each error class of the SDK
 * marks its prototype with a brand, a symbol from the process-wide registry (`Symbol.for`), the same in every
 * copy; `ConvoError[Symbol.hasInstance]` (inherited by every subclass) accepts a value whose prototype chain
 * carries the class's brand.
 */

/** Each SDK class's brand, by class: a WeakMap, so an integrator's own subclass has none (checked as usual). */
const brands = new WeakMap<object, symbol>();

/**
 * Marks each error class among `exports` with the brand of its name, the export's key (a module's export
 * names survive minification, unlike a class's `name`); what is not an error class is passed over.
 */
export function brand(exports: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(exports)) {
    if (typeof value !== 'function' || !(value.prototype instanceof Error)) continue;
    const mark = Symbol.for(`convo-sdk.${name}`);
    brands.set(value, mark);
    Object.defineProperty(value.prototype, mark, { value: true });
  }
}

/** Whether `value` is an instance of `cls`, or carries `cls`'s brand when `cls` is one of the SDK's. */
export function isInstance(cls: object, value: unknown): boolean {
  if (Function.prototype[Symbol.hasInstance].call(cls, value)) return true;
  const mark = brands.get(cls);
  return mark !== undefined && typeof value === 'object' && value !== null && mark in value;
}
