#!/usr/bin/env node
// The `convo-conformance` command. The logic lives in command.ts, which tests import without a process.
import { main } from './command.js';

const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
main(process.argv.slice(2), { out: console.log, err: console.error }, stop.signal).then((code) => {
  process.exitCode = code;
});
