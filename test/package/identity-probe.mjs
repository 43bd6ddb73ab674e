// Loads the built package twice in one Node process, through `import` (dist/index.js, dist/ai.js) and
// `require` (dist/index.cjs, dist/ai.cjs), and prints what `instanceof` answers across them, as JSON.
// Run by test/package/error-identity.test.ts.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const esm = await import('../../dist/index.js');
const cjs = require('../../dist/index.cjs');
const esmAi = await import('../../dist/ai.js');
const cjsAi = require('../../dist/ai.cjs');

const errorClasses = (module) =>
  Object.entries(module).filter(
    ([, value]) => typeof value === 'function' && value.prototype instanceof Error,
  );

/** For each class A of `from` and B of `to`: does an A of `from` pass `instanceof` B of `to` as it does in `to`? */
function mismatches(from, to) {
  const wrong = [];
  for (const [a, A] of errorClasses(from)) {
    for (const [b, B] of errorClasses(to)) {
      const across = Object.create(A.prototype) instanceof B;
      const within = Object.create(to[a].prototype) instanceof B;
      if (across !== within) wrong.push(`${a} instanceof ${b}: ${across}, expected ${within}`);
    }
  }
  return wrong;
}

/** What a client of `sdk` rejects with when the service answers 404. */
async function notFound(sdk) {
  const fetch = async () =>
    Response.json(
      { status: 'error', message: 'Not found.', message_code: 'api_v1_not_found' },
      { status: 404 },
    );
  const client = new sdk.Client({ baseUrl: 'https://api.example.com', token: 'token', fetch, maxRetries: 0 });
  return client.chats.get('3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d').catch((error) => error);
}

/** What `convo-sdk/ai`'s transport of `ai` throws for a message list that is not one. */
async function invalidMessages(ai, sdk) {
  const client = new sdk.Client({ baseUrl: 'https://api.example.com', token: 'token' });
  const transport = new ai.ConvoChatTransport({ client });
  return transport
    .sendMessages({
      trigger: 'submit-message',
      chatId: 'x',
      messageId: undefined,
      messages: [],
      abortSignal: undefined,
    })
    .catch((error) => error);
}

const fromEsm = await notFound(esm);
const fromCjs = await notFound(cjs);
const aiEsm = await invalidMessages(esmAi, esm);
const aiCjs = await invalidMessages(cjsAi, cjs);
console.log(
  JSON.stringify({
    distinct: esm.NotFoundError !== cjs.NotFoundError,
    classes: errorClasses(esm).map(([name]) => name),
    cjsClasses: errorClasses(cjs).map(([name]) => name),
    esmToCjs: mismatches(esm, cjs),
    cjsToEsm: mismatches(cjs, esm),
    thrown: {
      esmErrorIsCjsNotFound: fromEsm instanceof cjs.NotFoundError,
      cjsErrorIsEsmNotFound: fromCjs instanceof esm.NotFoundError,
      esmErrorIsCjsConflict: fromEsm instanceof cjs.ConflictError,
      aiEsmIsCjsValidation: aiEsm instanceof cjs.ValidationError,
      aiCjsIsEsmValidation: aiCjs instanceof esm.ValidationError,
      aiCjsIsEsmApiError: aiCjs instanceof esm.ApiError,
    },
  }),
);
