// The process of benchmark 13 (bench/anchors-request.ts forks it), in plain JavaScript, measured as the
// shared harness measures it: every contender's call and its baseline (raw `fetch` POSTing the same body to the
// same URL, `res.json()`) are runners of their own in this one process, called once each (a check), warmed with
// `warmup` calls each in turn, then `rounds` rounds of `n` calls per runner, in blocks of `block` calls: the
// runners take turns a block at a time, all of them shuffled anew for every block (mulberry32 seeded 0xbe9c4,
// the harness's). `run` answers the time per call of every block of every runner, by runner.
import { random, shuffle } from './seeded.mjs';
import { serveParent } from './serve-parent.mjs';

const messages = [{ role: 'user', content: 'hi' }];
const CHAT = '0b0e5f1e-5a8e-4c59-9d2a-6f1f4b1c2d3e';

/**
 * A contender's call against its mount (the harness's callers, their checks included).
 * @param {string} name `openai`, `anthropic`, `get` or `create`
 * @param {string} mount
 * @returns {Promise<() => Promise<void>>}
 */
async function caller(name, mount) {
  if (name === 'openai') {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: 'sk-bench', baseURL: `${mount}/v1`, maxRetries: 0 });
    return async () => {
      const r = await client.chat.completions.create({ model: 'bench-model', messages });
      if (r.choices[0]?.message.content !== 'hello') throw new Error('bad openai response');
    };
  }
  if (name === 'anthropic') {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const client = new Anthropic({ apiKey: 'sk-ant-bench', baseURL: mount, maxRetries: 0 });
    return async () => {
      const r = await client.messages.create({ model: 'bench-model', max_tokens: 16, messages });
      const first = r.content[0];
      if (first?.type !== 'text' || first.text !== 'hello') throw new Error('bad anthropic response');
    };
  }
  const { Client } = await import('convo-sdk');
  const client = new Client({ baseUrl: mount, token: 'bench', maxRetries: 0 });
  const call =
    name === 'create' ? () => client.chats.create({ name: 'bench' }) : () => client.chats.get(CHAT);
  return async () => {
    const r = await call();
    if (r.id !== CHAT) throw new Error('bad convo-sdk response');
  };
}

/**
 * The baseline of a contender: raw fetch of its URL with its request body.
 * @param {string} url
 * @param {unknown} request
 * @param {unknown} id the `id` its answer carries at the top (none for the contract's envelope)
 */
function rawCaller(url, request, id) {
  const body = JSON.stringify(request);
  const headers = { 'content-type': 'application/json', authorization: 'Bearer bench' };
  return async () => {
    const response = await fetch(url, { method: 'POST', headers, body });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const json = await response.json();
    if (json.id !== id) throw new Error('bad body');
  };
}

/**
 * @param {() => Promise<void>} call
 * @param {number} n
 */
async function loop(call, n) {
  const started = performance.now();
  for (let i = 0; i < n; i++) await call();
  return performance.now() - started;
}

/**
 * @typedef {{ name: string, mount: string, path: string, request: unknown, id: unknown }} Contender
 * @typedef {{ contenders: Contender[], n: number, rounds: number, warmup: number, block: number }} Run
 */
serveParent({
  run: async (arg) => {
    const { contenders, n, rounds, warmup, block } = /** @type {Run} */ (arg);
    /** @type {Array<{ name: string, call: () => Promise<void> }>} */
    const runners = [];
    for (const c of contenders) {
      runners.push({ name: c.name, call: await caller(c.name, c.mount) });
      runners.push({ name: `fetch:${c.name}`, call: rawCaller(`${c.mount}${c.path}`, c.request, c.id) });
    }
    for (const r of runners) await r.call();
    for (const r of runners) await loop(r.call, warmup);
    const next = random(0xbe9c4);
    /** @type {Record<string, number[]>} */
    const blocks = Object.fromEntries(runners.map((r) => [r.name, []]));
    for (let round = 0; round < rounds; round++)
      for (let done = 0; done < n; done += block) {
        const size = Math.min(block, n - done);
        for (const r of shuffle([...runners], next)) blocks[r.name]?.push((await loop(r.call, size)) / size);
      }
    return blocks;
  },
  end: () => ({}),
});
