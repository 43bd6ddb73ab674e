// Jest under CommonJS, as a ts-jest project has it: the preset and nothing else.
/** @type {import('jest').Config} */
module.exports = { preset: 'ts-jest' };
