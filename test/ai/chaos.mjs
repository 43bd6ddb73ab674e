// `npm run test:chaos`: createChatRoute as teams deploy it, attacked. Three route processes (the built
// package, test/ai/route-server.mjs) share a real Redis (Debian's redis-server) behind a round-robin proxy,
// against convo-mock; 20 users with 3 chats each speak the AI SDK's UI message stream protocol (POST a turn,
// a tool approval's continuation, GET a resume after a reload, POST a stop). Mid-turn, Redis is SIGKILLed and
// restarted, and one route process is SIGKILLed and restarted. Asserted: every owner gets every completed
// turn's full saved text (`chats.messages()`), live or after reloads; no user gets a byte of another's chat
// (its resume, stop and send answer 404); no process exits unplanned; each process's peak RSS stays within
// the bound. Prints the figures RELIABILITY.md records. Exits 1 on a failed assertion; bounded in time.
// CHAOS_DEBUG=1 passes the processes' stderr through.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { createServer as netServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readUIMessageStream } from 'ai';
import { messageText, toUIMessages } from '../../dist/ai.js';
import { Client } from '../../dist/index.js';

const root = new URL('../..', import.meta.url).pathname;
const TOKEN = 'chaos-token';
const USERS = 20;
const CHATS_PER_USER = 3;
/** The peak RSS a route process may reach, in MiB. */
const RSS_BOUND_MIB = 400;
/** The whole run's bound: it stops by itself. */
const RUN_MS = 120_000;
const WORDS = 60;
const STEP_MS = 40;
/** Each route process's maxHeldBytes in this run. */
const HELD_BYTES = 50_000;

const started = performance.now();
const failures = [];
const fail = (what) => {
  failures.push(what);
  console.error(`chaos: FAIL ${what}`);
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

if (spawnSync('redis-server', ['--version']).status !== 0) {
  if (process.env.CI === 'true') throw new Error('redis-server is required in CI');
  console.log('chaos: skipped (no redis-server)');
  process.exit(0);
}

/** A free loopback port. */
async function freePort() {
  const probe = netServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Every child process; `planned` marks a kill the run made. */
const children = new Set();
function start(name, command, args, ready, env = {}) {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const entry = { name, child, planned: false, peakKb: 0 };
  children.add(entry);
  let seen = '';
  child.stderr.on('data', (chunk) => {
    seen += chunk;
    if (process.env.CHAOS_DEBUG) process.stderr.write(chunk);
  });
  child.on('exit', (code, signal) => {
    children.delete(entry);
    if (!entry.planned && !stopping)
      fail(`${name} exited unplanned (${code ?? signal}): ${seen.slice(-800)}`);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} never became ready: ${seen}`)), 20_000);
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      const match = ready.exec(seen);
      if (match) {
        clearTimeout(timer);
        entry.url = match[1] ?? match[0];
        resolve(entry);
      }
    });
  });
}

function kill(entry) {
  entry.planned = true;
  entry.child.kill('SIGKILL');
}

/** The resident set of a process, now and at its peak (kB), from /proc. */
function memory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rss: field('VmRSS'), peak: field('VmHWM') };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

let stopping = false;
const work = mkdtempSync(join(tmpdir(), 'convo-chaos-'));
const chatsOf = join(work, 'chats.json');
writeFileSync(chatsOf, '{}');
/** What each chat is doing, for a run that overstays. */
const doing = new Map();
const watchdog = setTimeout(() => {
  fail(
    `the run passed ${RUN_MS} ms; still: ${JSON.stringify([...doing].filter(([, what]) => what !== 'done'))}`,
  );
  finish();
}, RUN_MS);

// --- The service, Redis, the route processes and the proxy ---
const mock = await start(
  'convo-mock',
  process.execPath,
  ['dist/mock/cli.js', '--port', '0', '--token', TOKEN, '--ping-ms', '1000'],
  /(http:\/\/\S+)/,
);
const redisPort = await freePort();
// Persisted as a production Redis is (append-only, each write synced): a restart keeps what was written.
const redisArgs = [
  '--port',
  String(redisPort),
  '--bind',
  '127.0.0.1',
  '--save',
  '',
  '--appendonly',
  'yes',
  '--appendfsync',
  'always',
  '--dir',
  work,
];
let redis = await start('redis-server', 'redis-server', redisArgs, /Ready to accept connections/);
const routeEnv = (port) => ({
  MOCK_URL: mock.url,
  REDIS_URL: `redis://127.0.0.1:${redisPort}`,
  CONVO_TOKEN: TOKEN,
  CHATS_OF: chatsOf,
  PORT: String(port),
  // Small enough that holds are released mid-run: their owners must still get every text.
  MAX_HELD_BYTES: String(HELD_BYTES),
});
const ports = await Promise.all([0, 1, 2].map(() => freePort()));
const startRoute = (n) =>
  start(
    `route ${n}`,
    process.execPath,
    ['test/ai/route-server.mjs'],
    /listening (http:\/\/\S+)/,
    routeEnv(ports[n]),
  );
const routes = await Promise.all([0, 1, 2].map(startRoute));
/** Peak RSS seen per route process (kB), sampled, and what each instance reported at its end. */
const peaks = [0, 0, 0];
const sampler = setInterval(() => {
  for (const [n, route] of routes.entries()) peaks[n] = Math.max(peaks[n], memory(route.child.pid).peak);
}, 100);

let next = 0;
const proxy = createServer((incoming, outgoing) => {
  const body = [];
  incoming.on('data', (chunk) => body.push(chunk));
  incoming.on('end', () => forward(Buffer.concat(body), 0));
  const forward = (payload, tries) => {
    const port = ports[next++ % ports.length];
    const upstream = httpRequest(
      { host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        answer.on('error', () => outgoing.destroy());
        answer.on('aborted', () => outgoing.destroy());
      },
    );
    upstream.on('error', (error) => {
      // A process down (the connection refused): the balancer tries the next one. A request a process took
      // and died with is not sent again: the client sees it break, as behind a real balancer.
      if (error.code === 'ECONNREFUSED' && !outgoing.headersSent && tries < ports.length)
        forward(payload, tries + 1);
      else outgoing.destroy();
    });
    outgoing.on('close', () => upstream.destroy());
    upstream.end(payload);
  };
});
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const api = `http://127.0.0.1:${proxy.address().port}/api/chat`;

// --- Users and chats ---
const client = new Client({ baseUrl: mock.url, token: TOKEN });
const owners = {};
const users = Array.from({ length: USERS }, (_, n) => `user-${n}`);
const chats = [];
for (const user of users)
  for (let c = 0; c < CHATS_PER_USER; c++) {
    const { id } = await client.chats.create({});
    owners[id] = user;
    chats.push({ id, user, got: new Map(), stopped: new Set() });
  }
writeFileSync(chatsOf, JSON.stringify(owners));

const call = (user, method, path, body, signal) =>
  fetch(`${api}${path}`, {
    method,
    headers: { 'x-user': user, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });

/** The UI message chunks of an answer, read until it ends, breaks or `signal` aborts. */
async function chunksOf(response, signal, onChunk = () => {}) {
  const chunks = [];
  let buffer = '';
  try {
    for await (const text of response.body.pipeThrough(new TextDecoderStream())) {
      buffer += text;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event.startsWith('data: ') ? event.slice(6) : '';
        if (data === '' || data === '[DONE]') continue;
        const chunk = JSON.parse(data);
        chunks.push(chunk);
        onChunk(chunk);
      }
      if (signal?.aborted) break;
    }
  } catch {
    // Broken (a process killed) or aborted (a reload): what arrived is what the page has.
  }
  return chunks;
}

/** The assistant message `chunks` build, as `useChat` builds it. */
async function messageOf(chunks, message) {
  let built = message;
  const stream = new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const update of readUIMessageStream({ stream, message, onError: () => {} })) built = update;
  return built;
}

const ended = (chunks) =>
  chunks.find((chunk) => chunk.type === 'finish' && chunk.messageMetadata?.convo?.status);

/** A user's message. */
const userMessage = (text) => ({ id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text }] });

/** Sends `text` into the chat, retried while the route is refusing (503: Redis away), as a user would. */
async function send(chat, messages, signal) {
  for (let attempt = 0; attempt < 40; attempt++) {
    const response = await call(
      chat.user,
      'POST',
      '',
      { id: chat.id, trigger: 'submit-message', messages },
      signal,
    );
    if (response.status === 200) return response;
    const text = await response.text();
    if (response.status !== 503 && response.status !== 409)
      throw new Error(`send ${response.status}: ${text}`);
    await sleep(250);
  }
  throw new Error('send: refused 40 times');
}

/**
 * Reloads as the documented page does until the turn's end arrives: the chat's history first (what the
 * page's history route answers, `toUIMessages`), which shows a turn that ended since; else a resume, which
 * replays the running turn from its start. A resume that replays a turn the owner already has (a record
 * older than the send, when the process that took the send died before Redis had its record) shows nothing
 * new: the page reloads again. `asked`: the turn's prompt, which its answer in the history follows. Resolves with the chunks of a resumed end, or the history's last answer.
 */
async function resumeToEnd(chat, asked) {
  for (let attempt = 0; attempt < 60; attempt++) {
    doing.set(chat.id, `history ${attempt}`);
    const history = await toUIMessages(client, chat.id).catch(() => []);
    const [prompt, last] = history.slice(-2);
    const answered = prompt?.role === 'user' && messageText(prompt).includes(asked);
    if (answered && last?.role === 'assistant' && last.metadata?.convo?.turnId !== undefined) return { last };
    doing.set(chat.id, `resume ${attempt}`);
    const response = await call(chat.user, 'GET', `/${chat.id}/stream`).catch(() => undefined);
    chat.log = `${chat.log ?? ''} resume ${response?.status}`;
    if (response?.status === 200) {
      const chunks = await chunksOf(response, undefined, (chunk) =>
        doing.set(chat.id, `resume ${attempt}: ${chunk.type}`),
      );
      const end = ended(chunks);
      if (end && !chat.got.has(end.messageMetadata.convo.turnId)) return { chunks };
    } else await response?.body?.cancel();
    chat.reloads = (chat.reloads ?? 0) + 1;
    await sleep(250);
  }
  return { chunks: [] };
}

/** Keeps what the owner was shown of a turn that ended, by the service's turn id. */
async function keep(chat, chunks, message) {
  const end = ended(chunks);
  if (!end) return fail(`${chat.id}: a turn never reached its end for its owner`);
  const built = await messageOf(chunks, message);
  if (!built) return fail(`${chat.id}: no message in ${JSON.stringify(chunks.map((chunk) => chunk.type))}`);
  chat.got.set(end.messageMetadata.convo.turnId, {
    text: messageText(built),
    status: end.messageMetadata.convo.status,
  });
}

/** Phase A: a turn that asks for a tool approval, approved, continued on the same message. */
async function approvalTurn(chat) {
  const prompt = userMessage(`[[mock:tool_approval]] [[mock:words n=20]] look it up`);
  const first = await chunksOf(await send(chat, [prompt]));
  const asking = first.find((chunk) => chunk.type === 'tool-approval-request');
  if (!asking) return fail(`${chat.id}: no tool approval asked`);
  const message = await messageOf(first);
  const parts = message.parts.map((part) =>
    part.type === 'dynamic-tool' && part.toolCallId === asking.toolCallId
      ? { ...part, state: 'approval-responded', approval: { id: asking.approvalId, approved: true } }
      : part,
  );
  const answered = { ...message, parts };
  const rest = await chunksOf(await send(chat, [prompt, answered]));
  await keep(chat, rest, answered);
}

/** Phase B: a long turn, reloaded mid-turn (the resume lands on another process), or stopped. */
async function longTurn(chat, index) {
  const prompt = userMessage(`[[mock:slow ms=${STEP_MS}]] [[mock:words n=${WORDS}]] tell me ${index}`);
  const reload = new AbortController();
  let words = 0;
  const reloadAt = 5 + (index % 30);
  doing.set(chat.id, 'long turn');
  const response = await send(chat, [prompt], reload.signal);
  const stopper = index % 12 === 0;
  const chunks = await chunksOf(response, reload.signal, (chunk) => {
    if (chunk.type === 'text-delta' && ++words === reloadAt && !stopper) reload.abort();
  });
  if (stopper) return;
  chat.log = `${chat.log ?? ''} long: ${chunks.length} chunks, ended ${!!ended(chunks)}`;
  const reloaded = ended(chunks) ? { chunks } : await resumeToEnd(chat, `tell me ${index}`);
  if (reloaded.last) {
    const { turnId, status } = reloaded.last.metadata.convo;
    chat.got.set(turnId, { text: messageText(reloaded.last), status });
  } else await keep(chat, reloaded.chunks);
  doing.set(chat.id, 'done');
}

/** Phase B's stops: the owner's stop cancels the turn, wherever it runs. */
async function stopTurn(chat) {
  const prompt = userMessage(`[[mock:hang]] wait`);
  doing.set(chat.id, 'stop: send');
  const response = await send(chat, [prompt]);
  // The user stops once the answer has begun: the turn runs on the service.
  let begun;
  const started = new Promise((resolve) => {
    begun = resolve;
  });
  const reading = chunksOf(response, undefined, (chunk) => {
    if (chunk.type === 'message-metadata' && chunk.messageMetadata?.convo?.turnId) begun();
  });
  await Promise.race([started, reading]);
  doing.set(chat.id, 'stop: stop');
  // A stop whose process died with it is pressed again; that one may find the turn already cancelled. The
  // service's record of the turn is the judge (checked at the end).
  for (let attempt = 0; ; attempt++) {
    const answer = await call(chat.user, 'POST', `/${chat.id}/stop`).then(
      (stop) => stop.json(),
      () => undefined,
    );
    if (answer !== undefined && attempt === 0 && answer.cancelled !== true)
      fail(`${chat.id}: the owner's stop answered ${JSON.stringify(answer)}`);
    if (answer !== undefined) break;
    if (attempt === 5) return fail(`${chat.id}: the owner's stop never answered`);
    await sleep(250);
  }
  chat.stopped.add(true);
  doing.set(chat.id, 'stop: reading');
  await reading;
  doing.set(chat.id, 'done');
}

/** Every path into another user's chat answers 404, and carries nothing of it. */
async function trespass(user, victim) {
  const answers = [
    await call(user, 'GET', `/${victim.id}/stream`),
    await call(user, 'POST', `/${victim.id}/stop`),
    await call(user, 'POST', '', {
      id: victim.id,
      trigger: 'submit-message',
      messages: [userMessage('mine now')],
    }),
  ];
  for (const answer of answers) {
    const body = await answer.text();
    if (answer.status !== 404 || body.includes('"type"') || body.includes('text-delta'))
      fail(`${user} reached ${victim.user}'s chat: ${answer.status} ${body.slice(0, 200)}`);
  }
}

function finish() {
  stopping = true;
  clearInterval(sampler);
  clearTimeout(watchdog);
  for (const entry of children) entry.child.kill('SIGKILL');
  proxy.closeAllConnections?.();
  proxy.close();
  rmSync(work, { recursive: true, force: true });
  const peakMib = peaks.map((kb) => Math.round(kb / 1024));
  console.log(
    `chaos: ${USERS} users x ${CHATS_PER_USER} chats, 3 route processes, ${elapsed()}; peak RSS per process (MiB): ${peakMib.join(', ')} (bound ${RSS_BOUND_MIB})`,
  );
  for (const [n, mib] of peakMib.entries())
    if (mib > RSS_BOUND_MIB) fail(`route ${n} peaked at ${mib} MiB, over ${RSS_BOUND_MIB}`);
  if (failures.length > 0) {
    console.error(`chaos: ${failures.length} failure(s)`);
    process.exit(1);
  }
  console.log('chaos: passed');
  process.exit(0);
}

try {
  // Phase A: 60 approval turns at once.
  await Promise.all(chats.map((chat) => approvalTurn(chat).catch((error) => fail(`${chat.id}: ${error}`))));
  console.log(`chaos: ${chats.length} tool approvals answered and continued (${elapsed()})`);

  // Phase B: 60 long turns at once; the chaos comes while they stream.
  const turns = chats.map((chat, index) =>
    (index % 12 === 0 ? stopTurn(chat) : longTurn(chat, index)).catch((error) =>
      fail(`${chat.id}: ${error}`),
    ),
  );
  await sleep(600);
  // Every user tries another's chat while it streams.
  await Promise.all(users.map((user, n) => trespass(user, chats[((n + 1) % USERS) * CHATS_PER_USER + 1])));
  kill(routes[1]);
  console.log(`chaos: route 1 SIGKILLed mid-turn (${elapsed()})`);
  await sleep(400);
  kill(redis);
  console.log(`chaos: redis SIGKILLed mid-turn (${elapsed()})`);
  await sleep(500);
  redis = await start('redis-server', 'redis-server', redisArgs, /Ready to accept connections/);
  console.log(`chaos: redis restarted (${elapsed()})`);
  routes[1] = await startRoute(1);
  console.log(`chaos: route 1 restarted (${elapsed()})`);
  await Promise.all(turns);
  console.log(`chaos: long turns over (${elapsed()})`);

  // The saved turns, each compared with what its owner got.
  let compared = 0;
  for (const chat of chats) {
    for await (const message of client.chats.messages(chat.id)) {
      if (message.status !== 'completed') continue;
      const got = chat.got.get(message.id);
      if (!got)
        fail(
          `${chat.id}: turn ${message.id} was completed but its owner never got it (got ${[...chat.got.keys()]}; ${chat.log ?? ''})`,
        );
      else if (got.text !== message.content)
        fail(
          `${chat.id}: turn ${message.id}: the owner got ${JSON.stringify(got.text.slice(0, 80))}…, saved ${JSON.stringify(message.content.slice(0, 80))}…`,
        );
      else compared++;
    }
    if (chat.stopped.size > 0) {
      const statuses = [];
      for await (const message of client.chats.messages(chat.id)) statuses.push(message.status);
      if (!statuses.includes('cancelled'))
        fail(`${chat.id}: the stopped turn was not cancelled (${statuses})`);
    }
  }
  const reloads = chats.reduce((sum, chat) => sum + (chat.reloads ?? 0), 0);
  console.log(`chaos: ${compared} saved turns equal to what their owners got; ${reloads} extra reloads`);
} catch (error) {
  fail(String(error?.stack ?? error));
}
finish();
