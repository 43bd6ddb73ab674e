import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The tests a mutation run uses: the unit tests, which drive the mutated files directly and time their
// waits with fake timers, the transport tests that map errors through fakes, and the chat route's. A mutant of module-level
// code (a policy row, a pattern) runs every one of them, so they must stay fast; the reliability suite and
// the loopback edge tests wait in real time and would make each such run minutes.
export default defineConfig({
  test: {
    ...base.test,
    include: [
      'test/unit/**/*.test.ts',
      'test/transport/surface.test.ts',
      'test/transport/hostile.test.ts',
      'test/conformance/failures.test.ts',
      'test/conformance/sanitize.test.ts',
      // The telemetry's tests: the real OpenTelemetry SDK against the mock over loopback, a few seconds.
      'test/telemetry/**/*.test.ts',
      'test/ai/route-spans*.test.ts',
      'test/ai/transport-spans*.test.ts',
      // The chat route's, in process, Redis's on an in-memory fake (the tests on a real redis-server are left out).
      'test/ai/route.test.ts',
      'test/ai/route-{bounds,deadline,defaults,dispatch,held-defaults,holds,isolation,reading,records,resume,stop}.test.ts',
    ],
  },
});
