// `npm run test:inspector`: convo-mock's inspector page in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core). Starts the built `convo-mock`, opens its root URL, streams a turn from the
// page's form and watches it complete, answers a tool approval and an elicitation form from the page and
// watches those turns continue, and checks the token appears nowhere. Keeps a screenshot in
// test-results/inspector.png (`-- --docs` also writes docs/inspector.png). Skips (exit 0) without Chromium.
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { duration, root, startMock, tail } from '../runtimes/harness.mjs';
import { launchChromium, skipWithoutChromium } from './chromium.mjs';

const TOKEN = 'tok_inspector_never_shown_7c1e';
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
  mock = await startMock(root, ['--token', TOKEN], { cli: join(root, 'dist', 'mock', 'cli.js') });
  check(/\(open it in a browser: the inspector\)/.test(mock.output()), `convo-mock printed ${mock.output()}`);
  chromium = await launchChromium({ width: 1280, height: 900 });
  const { page } = chromium;
  const logs = [];
  page.on('console', (message) => logs.push(`console.${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => logs.push(`pageerror: ${error.message}`));
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

  // 2. A tool approval, answered from the page: the turn continues with the tool and completes.
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

  // 3. An elicitation: the form is generated from requested_schema; shown in the screenshot, then accepted.
  await page.fill('#chat', '');
  await page.fill('#content', 'Sign me up [[mock:elicitation]] [[mock:words n=3]]');
  await page.click('#send');
  await page.waitForSelector('.interaction[data-kind=elicitation] input[name=email]');
  await page.fill('.interaction[data-kind=elicitation] input[name=email]', 'dev@example.com');
  mkdirSync(join(root, 'test-results'), { recursive: true });
  await page.screenshot({ path: screenshot, fullPage: true, timeout: 10_000 });
  await page.click('.interaction[data-kind=elicitation] button[data-answer=accept]');
  await page.waitForSelector('.interaction[data-kind=elicitation]', { state: 'detached' });
  await page.waitForFunction(() => document.querySelectorAll('.turn[data-status=completed]').length === 3);

  const requests = await page.$$eval('#requests tr', (rows) => rows.map((row) => row.textContent));
  check(
    requests.some((row) => row.includes('approve-tool') && row.includes('credential 1 (user 1)')),
    'the approval is not in the requests',
  );
  const html = await page.content();
  check(!html.includes(TOKEN), 'the page shows the token');
  const state = await page.evaluate(() => fetch('/_inspector/state').then((r) => r.text()));
  check(!state.includes(TOKEN), 'the state endpoint returns the token');
  if (problems.length) problems.push(...logs, tail(mock.output()));
  summary = `Chromium ${chromium.context.browser()?.version() ?? ''}: streamed turn (${full.trim().split(' ').length} words), tool approved, elicitation accepted from the page; ${requests.length} requests listed`;
} catch (error) {
  problems.push(`${error?.stack ?? error}`);
} finally {
  await chromium?.close().catch((error) => problems.push(`closing Chromium: ${error.message}`));
  await mock?.stop();
}

const took = duration(Math.round(performance.now() - started));
if (problems.length === 0) {
  console.log(`PASS inspector ${took}  ${summary}`);
  if (process.argv.includes('--docs')) copyFileSync(screenshot, join(root, 'docs', 'inspector.png'));
  console.log(`screenshot: ${relative(root, screenshot)}`);
  console.log('inspector: 1 passed, 0 failed');
} else {
  console.log(`FAIL inspector ${took}`);
  for (const problem of problems) console.log(`       | ${problem}`);
  if (existsSync(screenshot)) console.log(`screenshot: ${relative(root, screenshot)}`);
  console.log('inspector: 0 passed, 1 failed');
  process.exitCode = 1;
}
