// `npm run test:inspector`: convo-mock's inspector page in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core). Starts the built `convo-mock`, opens its root URL, streams a turn from the
// page's form and watches it complete; with the built SDK's Client beside it, checks that a 404 shows its
// message_code, that opening a POST row shows its body, that a turn shows its metadata and event times,
// that a long answer is cut with its length and "show all" fetches the whole, that polls send a cursor,
// that a fault armed from the page makes the SDK's next call retry and succeed, and that the HAR export
// parses and holds every request; answers a tool approval and an elicitation form from the page; and
// checks the token appears nowhere. Keeps a screenshot in test-results/inspector.png (`-- --docs` also
// writes docs/inspector.png, with pngquant). Skips (exit 0) without Chromium.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { duration, root, startMock, tail } from '../runtimes/harness.mjs';
import { launchChromium, skipWithoutChromium } from './chromium.mjs';

const TOKEN = 'tok_inspector_never_shown_7c1e';
const READER = 'tok_reader_never_shown_0b2d';
const screenshot = join(root, 'test-results', 'inspector.png');

skipWithoutChromium('inspector');

rmSync(screenshot, { force: true });
const started = performance.now();
const problems = [];
const check = (condition, message) => {
  if (!condition) problems.push(message);
};
let mock;
let chromium;
let summary = '';
try {
  mock = await startMock(root, ['--token', TOKEN, '--token', `${READER}=skills:read`], {
    cli: join(root, 'dist', 'mock', 'cli.js'),
  });
  const { Client } = await import(join(root, 'dist', 'index.js'));
  const client = new Client({ baseUrl: mock.url, token: TOKEN, retryDelay: { min: 1, max: 10 } });
  check(/\(open it in a browser: the inspector\)/.test(mock.output()), `convo-mock printed ${mock.output()}`);
  chromium = await launchChromium({ width: 1280, height: 900 });
  const { page } = chromium;
  const logs = [];
  page.on('console', (message) => logs.push(`console.${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => logs.push(`pageerror: ${error.message}`));
  const stateUrls = [];
  page.on('request', (request) => {
    if (request.url().includes('/_inspector/state')) stateUrls.push(request.url());
  });
  page.setDefaultTimeout(20_000);

  await page.goto(`${mock.url}/`, { timeout: 15_000 });
  await page.waitForSelector('body[data-ready]');

  // 1. A streamed turn sent from the page's form: it appears while streaming, then completes.
  await page.fill('#content', 'Tell me a story [[mock:words n=8]] [[mock:slow ms=120]]');
  await page.selectOption('#mode', 'auto');
  await page.click('#send');
  await page.waitForSelector('.turn[data-status=pending] li[data-entry=text]');
  const partial = await page.textContent('.turn li[data-entry=text] .text');
  await page.waitForSelector('.turn[data-status=completed] li[data-entry="message.completed"]');
  const full = await page.textContent('.turn[data-status=completed] li[data-entry=text] .text');
  check(
    partial.length > 0 && partial.length < full.length,
    `the text did not grow while streaming: "${partial}" then "${full}"`,
  );
  check(/^(word\d+ ){7}word\d+$/.test(full.trim()), `the folded text is "${full}"`);

  // 2. A 404 shows its message_code; a POST row opens to its pretty-printed body, the token masked.
  await client.skills.create({ name: 'Refunds', instructions: 'Refund politely.' });
  await fetch(`${mock.url}/api/v1/skills/999`, { headers: { authorization: `Bearer ${READER}` } });
  const notFound = 'tr[data-request][data-status="404"]';
  await page.waitForSelector(notFound);
  const notFoundText = await page.textContent(`${notFound} td.status`);
  check(/404\s*api_v1_not_found/.test(notFoundText), `the 404 row's status shows "${notFoundText}"`);
  const credentialCell = await page.textContent(`${notFound} td:nth-child(6)`);
  check(credentialCell === '#2 to…(27) user 1', `the 404 row's credential shows "${credentialCell}"`);
  const postRow = page.locator('tr[data-request]', { hasText: 'POST' }).filter({ hasText: '/api/v1/skills' });
  await postRow.first().click();
  await page.waitForSelector('tr.detail .request-body');
  const postBody = await page.textContent('tr.detail .request-body');
  check(
    postBody.includes('"name": "Refunds"') && postBody.includes('\n'),
    `the POST row opened to "${postBody}"`,
  );
  const postHeaders = await page.textContent('tr.detail .request-pane .headers');
  check(postHeaders.includes('authorization: Bearer [hidden]'), `request headers: ${postHeaders}`);
  const postResponse = await page.textContent('tr.detail .response-pane');
  check(
    postResponse.includes('201') && postResponse.includes('"name": "Refunds"'),
    `response: ${postResponse}`,
  );

  // 3. A turn with metadata: its metadata, model, usage and the time of each event since the turn began;
  //    a failover's replace point is marked and the text before it struck through.
  const withMetadata = await client.turns
    .stream(crypto.randomUUID(), {
      content: 'Answer me [[mock:words n=6]] [[mock:failover]]',
      metadata: { ticket: 'T-42' },
    })
    .finalTurn();
  const metaTurn = `.turn[data-turn-id="${withMetadata.id}"]`;
  await page.waitForSelector(`${metaTurn}[data-status=completed] li[data-entry="message.completed"]`);
  const meta = await page.textContent(`${metaTurn} .meta`);
  check(
    meta.includes('metadata {"ticket":"T-42"}') && meta.includes('model 1 mock-large'),
    `turn meta: ${meta}`,
  );
  check(/usage \d+ prompt \/ \d+ completion/.test(meta), `turn usage: ${meta}`);
  const times = await page.$$eval(`${metaTurn} .timeline .at`, (spans) => spans.map((s) => s.textContent));
  check(times.length >= 4 && times.every((t) => /^\+\d+ ms$/.test(t)), `event times: ${times.join(' ')}`);
  check(
    (await page.$$(`${metaTurn} li.replace`)).length === 1 &&
      (await page.$$(`${metaTurn} li.dropped`)).length >= 1,
    'the failover replace point is not marked',
  );

  // 4. A fault armed from the page: the SDK's next call gets the 503, retries and succeeds.
  await page.selectOption('#fault-route', 'path');
  await page.fill('#fault-path', '/api/v1/skills');
  await page.selectOption('#fault-action', 'respond');
  await page.fill('#fault-status', '503');
  await page.fill('#fault-code', 'api_v1_service_unavailable');
  await page.selectOption('#fault-retry', 'retry');
  await page.click('#arm');
  await page.waitForSelector('.fault[data-state=armed]');
  const listed = await client.skills.list();
  check(listed.items.length === 1, `skills.list() after the fault gave ${JSON.stringify(listed)}`);
  await page.waitForSelector('.fault[data-state=fired]');
  const fired = await page.textContent('.fault[data-state=fired]');
  check(
    fired.includes('503 api_v1_service_unavailable') && /fired on #\d+/.test(fired),
    `the fault shows "${fired}"`,
  );
  const faultRow = await page.textContent('tr[data-request][data-status="503"] td.status');
  check(
    faultRow.includes('api_v1_service_unavailable') && faultRow.includes('fault fired'),
    `503 row: ${faultRow}`,
  );

  // 5. Filters narrow the table (server-side), and clear again.
  await page.fill('#filter-status', '4xx');
  await page.waitForFunction(() => document.querySelectorAll('tr[data-request]').length === 1);
  await page.click('#filter-clear');
  await page.waitForFunction(() => document.querySelectorAll('tr[data-request]').length > 3);

  // 6. A tool approval, answered from the page: the turn continues with the tool and completes.
  await page.fill('#chat', '');
  await page.fill('#content', 'Look it up [[mock:tool_approval]] [[mock:words n=4]]');
  await page.selectOption('#mode', 'manual');
  await page.click('#send');
  await page.waitForSelector('.interaction[data-kind=tool_approval] .deadline');
  const deadline = await page.textContent('.interaction[data-kind=tool_approval] .deadline');
  check(/^expires in 1\d\d s$/.test(deadline), `the deadline shows "${deadline}"`);
  await page.click('.interaction[data-kind=tool_approval] button[data-answer=approve]');
  await page.waitForSelector('.interaction[data-kind=tool_approval]', { state: 'detached' });
  const approved = '.turn[data-status=completed]:has(li[data-entry="message.action_required"])';
  await page.waitForSelector(approved);
  const steps = await page.$$eval(`${approved} li[data-entry="message.step"]`, (items) =>
    items.map((li) => li.textContent),
  );
  check(
    steps.some((step) => step.includes('search@github')),
    `no step ran the approved tool: ${steps.join(' | ')}`,
  );

  // 7. An elicitation: the form is generated from requested_schema; shown in the screenshot, then accepted.
  await page.fill('#chat', '');
  await page.fill('#content', 'Sign me up [[mock:elicitation]] [[mock:words n=3]]');
  await page.click('#send');
  await page.waitForSelector('.interaction[data-kind=elicitation] input[name=email]');
  await page.fill('.interaction[data-kind=elicitation] input[name=email]', 'dev@example.com');
  mkdirSync(join(root, 'test-results'), { recursive: true });
  await page.screenshot({ path: screenshot, fullPage: true, timeout: 10_000 });
  await page.click('.interaction[data-kind=elicitation] button[data-answer=accept]');
  await page.waitForSelector('.interaction[data-kind=elicitation]', { state: 'detached' });
  await page.waitForFunction(() => document.querySelectorAll('.turn[data-status=completed]').length === 4);

  const requests = await page.$$eval('#requests tr[data-request]', (rows) =>
    rows.map((row) => row.textContent),
  );
  check(
    requests.some((row) => row.includes('approve-tool') && row.includes('#1 to…(30) user 1')),
    'the approval is not in the requests',
  );

  // 8. Markup from outside (a header, a body, metadata, a prompt, a filter) is shown as text, never run.
  const markup = (n) => `<img src=x onerror="window.__xss=${n}">`;
  await client.skills.create({ name: markup(1), instructions: 'i' }, { headers: { 'x-note': markup(2) } });
  await client.turns
    .stream(crypto.randomUUID(), {
      content: `${markup(3)} [[mock:words n=1]]`,
      metadata: { note: markup(4) },
    })
    .finalTurn();
  await page.fill('#filter-path', markup(5));
  await page.waitForFunction(() => document.querySelectorAll('tr[data-request]').length === 0);
  await page.click('#filter-clear');
  await page.waitForFunction(() => document.querySelectorAll('tr[data-request]').length > 3);
  await page
    .locator('tr[data-request]', { hasText: 'POST' })
    .filter({ hasText: '/api/v1/skills' })
    .first()
    .click();
  await page.waitForFunction(() =>
    document.querySelector('tr.detail')?.textContent.includes('window.__xss=1'),
  );
  await page.waitForFunction(() =>
    document.querySelector('.turn .metadata')?.textContent.includes('window.__xss=4'),
  );
  const shown = await page.evaluate(() => document.body.textContent);
  check(
    ['1', '2', '3', '4'].every((n) => shown.includes(`window.__xss=${n}`)),
    'the markup is not shown as text',
  );
  const ran = await page.evaluate(() => [window.__xss, document.querySelectorAll('img').length]);
  check(ran[0] === undefined && ran[1] === 0, `markup became elements: ${JSON.stringify(ran)}`);

  // 9. A long answer is cut in the state with its length; "show all" fetches the whole of it. The page polls
  //    with the cursor of its last answer.
  const long = await client.turns.send(crypto.randomUUID(), { content: 'Long [[mock:words n=1000]]' });
  const longContent = `.turn[data-turn-id="${long.id}"][data-status=completed] [data-field=content]`;
  await page.waitForSelector(`${longContent} button.whole`);
  const cutShown = await page.textContent(longContent);
  check(
    cutShown.includes(`(${long.content.length} chars)`) && cutShown.length < long.content.length,
    `the long answer shows "${cutShown.slice(-80)}"`,
  );
  await page.click(`${longContent} button.whole`);
  await page.waitForSelector(`${longContent}:not(:has(button.whole))`);
  const wholeShown = await page.textContent(longContent);
  check(wholeShown === long.content, `"show all" shows ${wholeShown.length} of ${long.content.length} chars`);
  check(
    stateUrls.some((url) => /[?&]since=[0-9a-f]{8}-\d+/.test(url)),
    `the page never polled with a cursor: ${stateUrls.slice(-3).join(' ')}`,
  );

  // 10. The HAR export (the page's link) parses and holds every request, without a token.
  const harText = await page.evaluate(() =>
    fetch(document.querySelector('#export').href).then((r) => r.text()),
  );
  check(!harText.includes(TOKEN) && !harText.includes(READER), 'the HAR export holds a token');
  const har = JSON.parse(harText);
  const state = JSON.parse(await page.evaluate(() => fetch('/_inspector/state').then((r) => r.text())));
  const exported = new Set(har.log.entries.map((entry) => entry._convo.id));
  check(
    har.log.version === '1.2' &&
      state.requests.every((r) => exported.has(r.id)) &&
      exported.size === state.requests.length,
    `the HAR holds ${exported.size} entries for ${state.requests.length} requests`,
  );
  check(
    har.log.entries.some((entry) => entry.response.content.text.startsWith('event: message.start\n')),
    'no stream in the HAR as its event text',
  );
  const html = await page.content();
  check(!html.includes(TOKEN), 'the page shows the token');
  check(!JSON.stringify(state).includes(TOKEN), 'the state endpoint returns the token');
  if (problems.length) problems.push(...logs, tail(mock.output()));
  summary = `Chromium ${chromium.context.browser()?.version() ?? ''}: streamed turn (${full.trim().split(' ').length} words), 404 code, POST body, turn metadata and times, page fault retried, tool approved, elicitation accepted; HAR of ${exported.size} requests`;
} catch (error) {
  problems.push(`${error?.stack ?? error}`);
} finally {
  await chromium?.close().catch((error) => problems.push(`closing Chromium: ${error.message}`));
  await mock?.stop();
}

const took = duration(Math.round(performance.now() - started));
if (problems.length === 0) {
  console.log(`PASS inspector ${took}  ${summary}`);
  // The picture of docs/inspector.md, reduced to 24 colours (pngquant, a Debian package) to stay under 150 KB.
  if (process.argv.includes('--docs')) {
    execFileSync('pngquant', [
      '24',
      '--speed',
      '1',
      '--force',
      '--output',
      join(root, 'docs', 'inspector.png'),
      screenshot,
    ]);
  }
  console.log(`screenshot: ${relative(root, screenshot)}`);
  console.log('inspector: 1 passed, 0 failed');
} else {
  console.log(`FAIL inspector ${took}`);
  for (const problem of problems) console.log(`       | ${problem}`);
  if (existsSync(screenshot)) console.log(`screenshot: ${relative(root, screenshot)}`);
  console.log('inspector: 0 passed, 1 failed');
  process.exitCode = 1;
}
