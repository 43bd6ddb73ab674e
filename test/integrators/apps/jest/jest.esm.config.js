// Jest under ESM, as Jest and ts-jest document it: ts-jest's ESM preset, run with --experimental-vm-modules;
// the CommonJS run's own test left to it.
const { createDefaultEsmPreset } = require('ts-jest');

/** @type {import('jest').Config} */
module.exports = {
  ...createDefaultEsmPreset({ tsconfig: 'tsconfig.esm.json' }),
  testPathIgnorePatterns: ['/node_modules/', '\\.cjs\\.spec\\.ts$'],
};
