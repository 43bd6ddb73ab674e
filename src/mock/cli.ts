#!/usr/bin/env node
// The `convo-mock` command. The logic lives in command.ts, which tests import without starting a server.
import { main } from './adapters/command.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
