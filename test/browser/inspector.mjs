// `npm run test:inspector`: convo-mock's inspector page in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core). Starts the built `convo-mock`, opens its root URL, streams a turn from the
// page's form and watches it complete, answers a tool approval and an elicitation form from the page and
// watches those turns continue, and checks the token appears nowhere. Keeps a screenshot in
// test-results/inspector.png (`-- --docs` also writes docs/inspector.png). Skips (exit 0) without Chromium.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { duration, root, tail } from '../runtimes/harness.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const TOKEN = 'tok_inspector_never_shown_7c1e';
// As in run.mjs: Chromium's own background connections are refused by the closed network.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const screenshot = join(root, 'test-results', 'inspector.png');

if (!existsSync(CHROMIUM)) {
  console.log(`SKIP inspector: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  console.log('inspector: 0 passed, 0 failed, 1 skipped');
  process.exit(0);
}
const { chromium } = await import('playwright-core');

/** Starts the built convo-mock (with its inspector) on a free port; resolves `{ url, stop, output }`. */
function startMock() {
  const child = spawn(
    process.execPath,
    [join(root, 'dist', 'mock', 'cli.js'), '--port', '0', '--token', TOKEN],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => stop().then(() => reject(new Error(`convo-mock printed no URL\n${output}`))),
      15_000,
    );
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
    });
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[0], stop, output: () => output });
      }
    });
  });
}

rmSync(screenshot, { force: true });
const started = performance.now();
const problems = [];
const check = (condition, message) => {
  if (!condition) problems.push(message);
};
let mock;
let context;
let profile;
let summary = '';
try {
  mock = await startMock();
  check(/\(open it in a browser: the inspector\)/.test(mock.output()), `convo-mock printed ${mock.output()}`);
  profile = mkdtempSync(join(tmpdir(), 'convo-sdk-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    timeout: 30_000,
  });
  const page = context.pages()[0] ?? (await context.newPage());
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
  summary = `Chromium ${context.browser()?.version() ?? ''}: streamed turn (${full.trim().split(' ').length} words), tool approved, elicitation accepted from the page; ${requests.length} requests listed`;
} catch (error) {
  problems.push(`${error?.stack ?? error}`);
} finally {
  await context?.close().catch((error) => problems.push(`closing Chromium: ${error.message}`));
  if (profile) rmSync(profile, { recursive: true, force: true });
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
