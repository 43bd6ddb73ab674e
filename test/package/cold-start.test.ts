import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

// What a cold import of the Node entries loads: the client's file and its bundled dependencies, not the
// telemetry recorder, zod's compiler or `@opentelemetry/api`, which are files of their own (tsup.config.ts
// `NODE_LAZY`) loaded by their first use. Each case runs in a process of its own, which records every
// module it resolves (`module.registerHooks`, for `import` and `require` alike).
const root = join(import.meta.dirname, '..', '..');
const dist = join(root, 'dist');

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts', 'dist.mjs'), 'check'], { stdio: 'pipe' });
});

/** The specifiers resolved while `code` ran after `load` (an `import` or a `require` of the entry). */
function resolvedBy(load: string, code = ''): string[] {
  const script = `
    import { registerHooks, createRequire } from 'node:module';
    const seen = [];
    registerHooks({ resolve(specifier, context, next) { seen.push(specifier); return next(specifier, context); } });
    const require = createRequire(import.meta.url);
    const sdk = ${load};
    const client = new sdk.Client({ baseUrl: 'http://127.0.0.1:9', token: 'tok_cold_start' });
    ${code}
    console.log(JSON.stringify(seen));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
  return JSON.parse(out.toString()) as string[];
}

const LAZY = [/@opentelemetry\/api/, /\/otel\.c?js$/, /zod-compile\.c?js$/, /^ky$/];

/** A tracer provider given as an option: the first call records, so it loads the recorder and the API. */
const RECORD = `
  const provider = { getTracer: () => ({ startSpan: () => ({ spanContext: () => ({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 }), setAttribute() {}, setStatus() {}, addEvent() {}, end() {} }) }) };
  const traced = new sdk.Client({ baseUrl: 'http://127.0.0.1:9', token: 'tok_cold_start', maxRetries: 0, telemetry: { tracerProvider: provider, meterProvider: { getMeter: () => ({ createHistogram: () => ({ record() {} }), createCounter: () => ({ add() {} }) }) } } });
  await traced.chats.catalog().catch(() => {});`;

describe.each([
  ['ESM (dist/index.js)', `await import(${JSON.stringify(pathToFileURL(join(dist, 'index.js')).href)})`],
  ['CommonJS (dist/index.cjs)', `require(${JSON.stringify(join(dist, 'index.cjs'))})`],
])('the Node entry, %s', (_, load) => {
  it('an import and a client load neither the recorder, zod’s compiler, @opentelemetry/api nor ky', () => {
    const seen = resolvedBy(load);
    for (const lazy of LAZY) expect(seen.filter((specifier) => lazy.test(specifier))).toEqual([]);
  });

  it('the first call that records loads the recorder and @opentelemetry/api, from files of their own', () => {
    const seen = resolvedBy(load, RECORD);
    expect(seen.some((specifier) => /^\.\/otel\.c?js$/.test(specifier))).toBe(true);
    expect(seen).toContain('@opentelemetry/api');
  });
});
