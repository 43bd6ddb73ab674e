// Mutation testing of the retry policy, the error mapping, the fold, the delta decoding, the stream's
// mapping and re-opening, pagination, the answer endpoints, the redaction rule, a turn's shared cancels,
// the SSE reader (watchdog, bounds), the AI transport's paused reads and text fold, the chat route (its dispatch, holds, records and
// bounds), the inspector's mask:
// `npm run test:mutation`, or one file: `npm run test:mutation -- --mutate src/http/policy.ts`.
// Slow (minutes per file) and not part of `npm test`; the figures are in RELIABILITY.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts' },
  dryRunTimeoutMinutes: 30,
  mutate: [
    'src/http/policy.ts',
    'src/http/policy-run.ts',
    'src/http/keyed.ts',
    'src/http/retry-after.ts',
    'src/http/failures.ts',
    'src/stream/fold.ts',
    'src/stream/delta.ts',
    'src/stream/map.ts',
    'src/stream/decode.ts',
    'src/http/page.ts',
    'src/turn/connect.ts',
    'src/resources/actions.ts',
    'src/resources/resource.ts',
    'src/contract/redact.ts',
    'src/turn/cancel.ts',
    'src/stream/sse.ts',
    'src/ai/paused.ts',
    'src/ai/text.ts',
    'src/ai/route.ts',
    'src/ai/route-holds.ts',
    'src/ai/route-records.ts',
    'src/ai/route-limits.ts',
    'src/mock/inspector/masking.ts',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
