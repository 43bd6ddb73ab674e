import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The tests a mutation run uses: every unit and reliability test of the client's code. The mock's own
// suite, the end-to-end suite (the same client code through the mock), the package and docs checks add
// minutes per mutant and kill nothing these do not.
export default defineConfig({
  test: { ...base.test, include: ['test/unit/**/*.test.ts', 'test/reliability/**/*.test.ts'] },
});
