import { writeFile } from 'node:fs/promises';
import { ConnectionError, ValidationError } from '../index.js';
import { parseArgs, USAGE } from './args.js';
import { resolveTokens } from './credentials.js';
import { formatJunit } from './junit.js';
import { formatReport } from './report.js';
import { runConformance } from './run.js';
import { sanitizerOf, serverTextOf } from './sanitize.js';

/** Where the command writes. */
export interface CommandIo {
  /** Standard output. */
  out(text: string): void;
  /** Standard error. */
  err(text: string): void;
}

/**
 * The exit statuses of `convo-conformance`: the service conforms; it does not; the command was used wrongly
 * (or its main credential refused); the run could not run (no answer from the service) or broke.
 */
const EXIT = { ok: 0, failed: 1, usage: 2, broken: 3 } as const;

/**
 * Runs `convo-conformance` with `argv`, credentials also read from `env`; resolves to its exit status
 * (`EXIT`): never rejects, and never writes a credential it was given.
 */
export async function main(
  argv: readonly string[],
  io: CommandIo,
  signal?: AbortSignal,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const secrets: string[] = [];
  try {
    const args = parseArgs(argv);
    secrets.push(...Object.values(args.tokens).filter((token) => token !== undefined));
    if (args.help) {
      io.out(USAGE);
      return EXIT.ok;
    }
    const tokens = await resolveTokens(args.tokens, args.tokenFile, env);
    secrets.push(...Object.values(tokens).filter((token) => token !== undefined));
    const outsideUserId = outsideUserOf(args.outsideUser ?? (env.CONVO_OUTSIDE_USER_ID || undefined));
    const report = await runConformance({ url: args.url, tokens, only: args.only, outsideUserId, signal });
    if (args.junit !== undefined) await writeFile(args.junit, formatJunit(report));
    io.out(args.json ? JSON.stringify(report, null, 2) : formatReport(report));
    return report.ok ? EXIT.ok : EXIT.failed;
  } catch (error) {
    // Messages are the package's own, but a path or an OS error may quote anything: sanitized all the same.
    const sanitize = sanitizerOf(secrets);
    const quoted = serverTextOf(secrets);
    if (error instanceof ValidationError) {
      io.err(`convo-conformance: ${sanitize(error.message)}\n\n${USAGE}`);
      return EXIT.usage;
    }
    if (error instanceof ConnectionError) {
      io.err(`convo-conformance: could not run: ${sanitize(quoted(error.message))}`);
      return EXIT.broken;
    }
    const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    io.err(`convo-conformance: the run broke: ${sanitize(quoted(what))}`);
    return EXIT.broken;
  }
}

/** The user id of `--outside-user` (or `CONVO_OUTSIDE_USER_ID`): a positive integer, else a usage error. */
function outsideUserOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9]\d{0,15}$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new ValidationError([
      { field: '--outside-user', message: 'must be a user id (a positive integer)' },
    ]);
  }
  return Number(text);
}
