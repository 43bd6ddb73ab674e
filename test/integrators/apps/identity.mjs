// An app that both `import`s and `require`s the package (as a codebase with a CommonJS dependency does): two
// builds loaded, one answer to `instanceof`. Every exported error class both ways, a client's 404 of each build
// against the other's classes, and convo-sdk/ai's errors; prints the number of checks, exits 1 on the first miss.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as esmAi from 'convo-sdk/ai';
import * as esmMock from 'convo-sdk/mock';

const esm = await import('convo-sdk');
const require = createRequire(import.meta.url);
const cjs = require('convo-sdk');
const cjsAi = require('convo-sdk/ai');
const cjsMock = require('convo-sdk/mock');
let checks = 0;
const check = (actual, expected, what) => {
  assert.equal(actual, expected, what);
  checks += 1;
};

assert.notEqual(esm.NotFoundError, cjs.NotFoundError, 'import and require loaded the same build');
const classes = Object.keys(esm).filter((name) => esm[name]?.prototype instanceof Error);
assert.ok(classes.length > 20, `only ${classes.length} error classes`);
for (const a of classes) {
  for (const b of classes) {
    check(
      Object.create(esm[a].prototype) instanceof cjs[b],
      Object.create(cjs[a].prototype) instanceof cjs[b],
      `import ${a} instanceof require ${b}`,
    );
    check(
      Object.create(cjs[a].prototype) instanceof esm[b],
      Object.create(esm[a].prototype) instanceof esm[b],
      `require ${a} instanceof import ${b}`,
    );
  }
}

/** What a client of `sdk` on a mock of `mock` rejects with for a skill that does not exist. */
async function missingSkill(sdk, mock) {
  const service = mock.createMock();
  const client = new sdk.Client({
    baseUrl: service.url,
    token: 'mock-token',
    fetch: service.fetch,
    maxRetries: 0,
  });
  return client.skills.get(999_999).then(
    () => assert.fail('the skill exists'),
    (error) => error,
  );
}
const fromImport = await missingSkill(esm, esmMock);
const fromRequire = await missingSkill(cjs, cjsMock);
check(fromImport instanceof cjs.NotFoundError, true, "an imported client's 404 is require's NotFoundError");
check(fromImport instanceof cjs.ApiError, true, "an imported client's 404 is require's ApiError");
check(
  fromImport instanceof cjs.ConflictError,
  false,
  "an imported client's 404 is not require's ConflictError",
);
check(fromRequire instanceof esm.NotFoundError, true, "a required client's 404 is import's NotFoundError");

/** What convo-sdk/ai's transport of `ai` throws for an id that is not the service's chat id. */
async function notAChat(sdk, ai) {
  const client = new sdk.Client({ baseUrl: 'https://convo.test', token: 'mock-token' });
  const transport = new ai.ConvoChatTransport({ client });
  const messages = [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hello' }] }];
  const options = {
    trigger: 'submit-message',
    chatId: 'not-a-chat',
    messageId: undefined,
    messages,
    abortSignal: undefined,
  };
  return transport.sendMessages(options).then(
    () => assert.fail('sent'),
    (error) => error,
  );
}
check(
  (await notAChat(cjs, cjsAi)) instanceof esm.ValidationError,
  true,
  "require's convo-sdk/ai error is import's ValidationError",
);
check(
  (await notAChat(esm, esmAi)) instanceof cjs.ValidationError,
  true,
  "import's convo-sdk/ai error is require's ValidationError",
);
console.log(`${classes.length} error classes, ${checks} instanceof checks passed`);
