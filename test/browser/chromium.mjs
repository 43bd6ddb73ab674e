// Shared by the browser tests (run.mjs, inspector.mjs): Debian's Chromium (not a browser download: the
// network is closed), driven by playwright-core in a throwaway profile.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The Chromium binary: CHROMIUM_PATH, else Debian's. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

// Required on these machines: without the background-networking flags Chromium's own connections are
// refused by the closed network, many at a time.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Exits 0 with a SKIP line when there is no Chromium: `name` is the test's name. */
export function skipWithoutChromium(name) {
  if (existsSync(CHROMIUM)) return;
  console.log(`SKIP ${name}: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  console.log(`${name}: 0 passed, 0 failed, 1 skipped`);
  process.exit(0);
}

/**
 * Launches headless Chromium with a new profile and a page; resolves `{ context, page, close }`, where
 * `close` also removes the profile.
 */
export async function launchChromium(viewport) {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'convo-sdk-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport,
      timeout: 30_000,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const close = async () => {
      try {
        await context.close();
      } finally {
        rmSync(profile, { recursive: true, force: true });
      }
    };
    return { context, page, close };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}
