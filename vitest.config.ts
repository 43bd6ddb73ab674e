import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    // Hang guards, not speed checks: a test's own bounds (its deadlines, `eventually`, `quiesce`) fail first
    // with a message that says what hung; these only stop a test that hangs for ever, with room for a
    // machine many times slower or busy with other work.
    testTimeout: 60_000,
    // Every answer the in-process mock gives is checked against the OpenAPI document.
    setupFiles: ['test/support/mock-answers-setup.ts'],
    hookTimeout: 60_000,
  },
});
