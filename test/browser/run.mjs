// `npm run test:browser`: the packed package in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core). The page script (page.mjs) is bundled by esbuild for the browser from a project that
// installed the tarball, served by a small static server on 127.0.0.1, and streams a turn with a tool
// approval from the package's `convo-mock` on another port (so every call is cross-origin, through CORS).
// Asserts on the DOM and keeps a screenshot in test-results/browser.png. Skips (exit 0) without Chromium.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { duration, packAndInstall, root, startMock } from '../runtimes/harness.mjs';
import { launchChromium, skipWithoutChromium } from './chromium.mjs';

const TOKEN = 'browser-token';
const screenshot = join(root, 'test-results', 'browser.png');

skipWithoutChromium('browser');
const esbuild = await import('esbuild');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
};

/** Serves the files of `dir` (GET only, no listing) on 127.0.0.1, a free port. */
async function serveStatic(dir) {
  const server = createServer((request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    const file = join(dir, path === '/' ? 'index.html' : path);
    const type = TYPES[extname(file)];
    if (request.method !== 'GET' || !type || relative(dir, file).startsWith('..') || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(readFileSync(file));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

rmSync(screenshot, { force: true });
const started = performance.now();
const problems = [];
const check = (condition, message) => {
  if (!condition) problems.push(message);
};
let project;
let mock;
let site;
let chromium;
let summary = '';
try {
  project = await packAndInstall('convo-sdk-browser-');
  console.log(`packed ${project.tarball} and installed it into ${project.dir} in ${duration(project.ms)}`);

  // Bundled, not an import map: the ESM build imports its dependencies by bare specifier (zod/mini,
  // eventsource-parser, p-retry...), which a browser resolves only through a bundler or a hand-written map
  // of every dependency's entry files. A bundler is what integrators use, and esbuild's browser platform
  // fails the build if the entry pulls in a Node builtin.
  const www = join(project.dir, 'www');
  mkdirSync(www);
  copyFileSync(join(import.meta.dirname, 'page.mjs'), join(project.dir, 'page.mjs'));
  copyFileSync(join(import.meta.dirname, 'index.html'), join(www, 'index.html'));
  const bundle = await esbuild.build({
    absWorkingDir: project.dir,
    entryPoints: ['page.mjs'],
    outfile: join(www, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    sourcemap: true,
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = Object.keys(bundle.metafile.inputs);
  if (!inputs.includes('node_modules/convo-sdk/dist/bundler/index.js')) {
    throw new Error(`the bundle did not take convo-sdk from the installed tarball: ${inputs.join(', ')}`);
  }
  // The page is served unminified, for readable stack traces; the size reported is the minified one.
  const minified = await esbuild.build({
    absWorkingDir: project.dir,
    entryPoints: ['page.mjs'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const code = minified.outputFiles[0].contents;
  const bundleInfo = `${(code.length / 1024).toFixed(1)} KiB, ${(gzipSync(code).length / 1024).toFixed(1)} KiB gzipped`;
  console.log(`bundled page.mjs for the browser (minified: ${bundleInfo})`);

  mock = await startMock(project.dir, ['--token', TOKEN]);
  site = await serveStatic(www);
  const pageUrl = `${site.url}/?base=${encodeURIComponent(mock.url)}&token=${TOKEN}`;
  console.log(`page ${site.url}, convo-mock ${mock.url}`);

  chromium = await launchChromium({ width: 900, height: 560 });
  const { page } = chromium;
  const logs = [];
  page.on('console', (message) => logs.push(`console.${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => logs.push(`pageerror: ${error.message}`));
  page.on('requestfailed', (request) =>
    logs.push(`requestfailed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`),
  );
  const mockCalls = [];
  page.on('request', (request) => {
    if (request.url().startsWith(mock.url))
      mockCalls.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });

  await page.goto(pageUrl, { timeout: 15_000 });
  await page.waitForSelector('body[data-done]', { timeout: 30_000 }).catch(() => {
    problems.push('the page did not finish the turn within 30 s');
  });
  const dom = await page.evaluate(() => ({
    status: document.getElementById('status').textContent,
    approval: document.getElementById('approval').textContent,
    called: document.getElementById('called').textContent,
    deltas: Number(document.getElementById('deltas').textContent),
    text: document.getElementById('text').textContent,
    content: document.getElementById('text').dataset.content,
    error: document.getElementById('error').textContent,
  }));
  mkdirSync(join(root, 'test-results'), { recursive: true });
  await page.screenshot({ path: screenshot, fullPage: true, timeout: 10_000 });

  check(dom.status === 'completed', `#status is ${JSON.stringify(dom.status)}, not "completed"`);
  check(dom.text.trim().length > 0, '#text is empty');
  check(dom.text === dom.content, `#text ${JSON.stringify(dom.text)} is not the turn's content`);
  check(dom.deltas > 0, 'no text update was shown');
  check(dom.approval === 'search@github: approved', `#approval is ${JSON.stringify(dom.approval)}`);
  check(dom.called.split(', ').includes('search@github'), `#called is ${JSON.stringify(dom.called)}`);
  check(mockCalls.length > 0, `the page made no request to ${mock.url}`);
  if (dom.error) problems.push(`the page shows an error: ${dom.error}`);
  if (problems.length) {
    problems.push(`requests to the mock: ${mockCalls.join('; ') || 'none'}`);
    problems.push(...logs);
  }
  summary =
    `Chromium ${chromium.context.browser()?.version() ?? ''}: turn ${dom.status}, ${dom.deltas} text updates ` +
    `(${dom.text.length} chars), tool ${dom.called || 'none'} approved and called, ` +
    `${mockCalls.length} cross-origin requests; bundle ${bundleInfo}`;
} catch (error) {
  problems.push(`setup: ${error?.stack ?? error}`);
} finally {
  await chromium?.close().catch((error) => problems.push(`closing Chromium: ${error.message}`));
  await site?.close();
  await mock?.stop();
  project?.remove();
}

const took = duration(Math.round(performance.now() - started));
if (problems.length === 0) {
  console.log(`PASS browser ${took}  ${summary}`);
  console.log(`screenshot: ${relative(root, screenshot)}`);
  console.log('browser: 1 passed, 0 failed');
} else {
  console.log(`FAIL browser ${took}`);
  for (const problem of problems) console.log(`       | ${problem}`);
  if (existsSync(screenshot)) console.log(`screenshot: ${relative(root, screenshot)}`);
  console.log('browser: 0 passed, 1 failed');
  process.exitCode = 1;
}
