// The smoke program of the runtime matrix for Node, Bun and Deno. Plain ESM JavaScript, so that they all
// run it as is, from a project that installed the packed tarball: it imports `convo-sdk` exactly as an
// integrator does. The client reads CONVO_BASE_URL and CONVO_API_TOKEN itself; scenario.mjs holds what is
// checked against that `convo-mock` server. Prints one summary line; exits non-zero on any failure.
import { Client } from 'convo-sdk';
import { smokeTurn } from './scenario.mjs';

const runtime = globalThis.Deno
  ? `deno ${globalThis.Deno.version.deno}`
  : globalThis.Bun
    ? `bun ${globalThis.Bun.version}`
    : `node ${process.versions.node}`;
// The turn's events as they were read, for the failure message.
const seen = [];
const progress = () => `events read: ${seen.join(' ') || 'none'}`;

// A bounded run: the turn is cut after 20 s, and the program fails after 30 s whatever holds it.
const deadline = setTimeout(() => {
  console.error(`FAIL ${runtime}: no result within 30 s; ${progress()}`);
  process.exit(1);
}, 30_000);

try {
  for (const name of ['CONVO_BASE_URL', 'CONVO_API_TOKEN']) {
    if (!process.env[name]) throw new Error(`${name} is not set`);
  }
  console.log(await smokeTurn(new Client(), runtime, seen));
} catch (error) {
  console.error(`FAIL ${runtime}: ${progress()}\n${error?.stack ?? error}`);
  process.exitCode = 1;
} finally {
  clearTimeout(deadline);
}
