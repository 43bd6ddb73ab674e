// The smoke program of the runtime matrix for workerd (Cloudflare's Workers runtime): an ES-module worker,
// bundled by workerd.mjs from a project that installed the packed tarball. Its `fetch` handler runs
// scenario.mjs against the `convo-mock` server of its bindings (workerd.capnp) and answers the summary
// line, or the failure with status 500. A worker has no process.env: the client gets its options here.
import { Client } from 'convo-sdk';
import { smokeTurn } from './scenario.mjs';

export default {
  async fetch(_request, env) {
    const runtime = `workerd ${env.WORKERD_VERSION}`;
    // The turn's events as they were read, for the failure message.
    const seen = [];
    try {
      const client = new Client({ baseUrl: env.CONVO_BASE_URL, token: env.CONVO_API_TOKEN });
      return new Response(await smokeTurn(client, runtime, seen));
    } catch (error) {
      const failure = `FAIL ${runtime}: events read: ${seen.join(' ') || 'none'}\n${error?.stack ?? error}`;
      return new Response(failure, { status: 500 });
    }
  },
};
