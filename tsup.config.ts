import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'mock/index': 'src/mock/index.ts',
    'mock/cli': 'src/mock/cli.ts',
    msw: 'src/mock/msw.ts',
  },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts', 'mock/index': 'src/mock/index.ts', msw: 'src/mock/msw.ts' } },
  target: 'es2022',
  platform: 'neutral',
  clean: true,
  sourcemap: true,
  treeshake: true,
  splitting: true,
});
