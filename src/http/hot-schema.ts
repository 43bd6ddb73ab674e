import type * as z from 'zod/mini';

/** zod's `compile`: a schema in, a schema with a generated fast path out (itself where that is refused). */
export type SchemaCompiler = <S extends z.ZodMiniType>(schema: S) => S;

/** Items a schema validates before it is compiled: compiling costs a few ms and saves more on long lists. */
const COMPILE_AFTER_ITEMS = 1_000;

/** The compiler the Node entry registers (`load`), and its loading once started: one per process. */
const COMPILER: { load?: () => Promise<SchemaCompiler>; loading?: Promise<SchemaCompiler> } = {};
const validated = new WeakMap<object, number>();
const compiled = new WeakMap<object, z.ZodMiniType>();

/**
 * Lets hot schemas be compiled. Only the Node entry calls it: in Node the compiler costs nothing to ship,
 * while in a browser bundle it would add about 10 KB gzipped to save microseconds on a few lists.
 */
export function useSchemaCompiler(load: () => Promise<SchemaCompiler>): void {
  COMPILER.load = load;
}

/**
 * The schema to validate a response's data with. Once a schema has validated enough items (list pages add
 * their length), the compiled copy takes over: it validates long lists several times faster (BENCHMARKS.md,
 * "The speed machinery, with and without") and falls back to zod's own parser on invalid input, so results
 * and issues are the same. Where code generation is refused (a CSP, some edge runtimes), zod hands the
 * schema back unchanged.
 */
export function hotSchema<T>(schema: z.ZodMiniType<T>, data: unknown): z.ZodMiniType<T> {
  const fast = compiled.get(schema);
  if (fast) return fast as z.ZodMiniType<T>;
  const load = COMPILER.load;
  if (!load) return schema;
  const items = (validated.get(schema) ?? 0) + (Array.isArray(data) ? data.length : 1);
  validated.set(schema, items);
  if (items >= COMPILE_AFTER_ITEMS) {
    compiled.set(schema, schema); // one compilation per schema; the plain parser meanwhile
    COMPILER.loading ??= load();
    // A compiler that fails to load leaves the plain parser in place.
    COMPILER.loading.then((compile) => compiled.set(schema, compile(schema))).catch(() => {});
  }
  return schema;
}
