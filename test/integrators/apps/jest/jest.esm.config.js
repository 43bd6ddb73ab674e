// Jest under ESM, as Jest and ts-jest document it: ts-jest's ESM preset, run with --experimental-vm-modules.
const { createDefaultEsmPreset } = require('ts-jest');

/** @type {import('jest').Config} */
module.exports = createDefaultEsmPreset({ tsconfig: 'tsconfig.esm.json' });
