// Jest under CommonJS, as a ts-jest project has it: the preset, and the ESM run's own test left to it.
/** @type {import('jest').Config} */
module.exports = { preset: 'ts-jest', testPathIgnorePatterns: ['/node_modules/', '\\.esm\\.spec\\.ts$'] };
