import { parseArgs } from 'node:util';
import { LIMITS } from '../../contract/limits.js';
import { type MockCredential, parseTokenFlag } from '../state/credentials.js';
import { isLoopback } from './host-names.js';
import { type MockServerOptions, startMockServer } from './server.js';

/** The `--help` text; flags as mock-conventions.md fixes them. */
export const USAGE = `Usage: convo-mock [options]

Serves the reference mock of the Conversational AI Service API v1 over HTTP.

Options:
  --host HOST                    interface to bind (default 127.0.0.1; a non-loopback one is
                                 reachable from other machines, and a warning says so)
  --port PORT                    port, 0 for any free one (default 4010)
  --token TOKEN[=SCOPES][@USER]  a credential; repeatable. SCOPES is a comma list, "TOKEN=" has none,
                                 no "=" has every scope; USER is a user id (default 1).
                                 Without any: mock-token, every scope, user 1.
  --name NAME                    what the inspector calls the --token just before it (1 to 64
                                 printable ASCII characters): --token alice --name Alice
  --allow KIND=IDS               restricts the --token just before it to an allowlist (section 5):
                                 KIND is skills or libraries, IDS a comma list, empty for none;
                                 with skills, creating one is refused (403):
                                 --token restricted-token --allow skills=
  --ping-ms MS                   silence before a stream ping (default ${LIMITS.pingIntervalMs})
  --interaction-ttl-ms MS        lifetime of an interaction (default ${LIMITS.interactionLifetimeMs})
  --no-inspector                 do not serve the inspector page at / (and /_inspector/*)
  -h, --help                     print this help

Once listening, prints one line with http://HOST:PORT; open it in a browser for the inspector: the
requests (each opens to its headers and bodies, tokens masked), turns with their event times, pending
interactions, faults to arm, and a HAR export, live. Stops on SIGINT or SIGTERM.`;

/** Where the command writes and which signals stop it; the process's by default, fakes in tests. */
export interface CommandIo {
  /** Writes one line to standard output. */
  out(line: string): void;
  /** Writes one line to standard error. */
  err(line: string): void;
  /** Source of SIGINT and SIGTERM (the process, or an EventEmitter in tests). */
  signals: {
    once(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
    off(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  };
}

/** What the command line asks for: help, or a server. */
export type CommandLine = { help: true } | { help: false; server: MockServerOptions };

/** Parses the arguments of `convo-mock`; throws an Error with a readable message when they are wrong. */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const { values, tokens: parsed } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    tokens: true,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      token: { type: 'string', multiple: true },
      name: { type: 'string', multiple: true },
      allow: { type: 'string', multiple: true },
      'ping-ms': { type: 'string' },
      'interaction-ttl-ms': { type: 'string' },
      'no-inspector': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { help: true };

  const tokens = namedTokens(parsed);
  const server: MockServerOptions = { tokens };
  if (values['no-inspector']) server.inspector = false;
  if (values.host !== undefined) server.host = values.host;
  if (values.port !== undefined) server.port = integer('--port', values.port, 0, 65_535);
  if (values['ping-ms'] !== undefined) server.pingMs = integer('--ping-ms', values['ping-ms'], 1);
  if (values['interaction-ttl-ms'] !== undefined) {
    server.interactionTtlMs = integer('--interaction-ttl-ms', values['interaction-ttl-ms'], 1);
  }
  return { help: false, server };
}

/**
 * Runs `convo-mock`: serves until SIGINT or SIGTERM, then closes and resolves 0. Resolves 2 on bad
 * arguments, 1 when the server cannot start (port taken), 0 after `--help`.
 */
export async function main(argv: readonly string[], io: CommandIo = processIo()): Promise<number> {
  let line: CommandLine;
  try {
    line = parseCommandLine(argv);
  } catch (error) {
    io.err(`convo-mock: ${errorMessage(error)}`);
    io.err('Run "convo-mock --help" for usage.');
    return 2;
  }
  if (line.help) {
    io.out(USAGE);
    return 0;
  }

  let server: Awaited<ReturnType<typeof startMockServer>>;
  try {
    // The command serves the inspector unless told not to; the API leaves it off.
    server = await startMockServer({ inspector: true, ...line.server });
  } catch (error) {
    io.err(`convo-mock: cannot listen: ${errorMessage(error)}`);
    return 1;
  }
  // The one line black-box suites wait for (mock-conventions.md).
  io.out(
    `convo-mock listening on ${server.url}${line.server.inspector === false ? '' : ' (open it in a browser: the inspector)'}`,
  );
  const { hostname } = new URL(server.url);
  if (!isLoopback(hostname)) io.err(exposedWarning(hostname));

  await new Promise<void>((resolve) => {
    const stop = () => {
      io.signals.off('SIGINT', stop);
      io.signals.off('SIGTERM', stop);
      resolve();
    };
    io.signals.once('SIGINT', stop);
    io.signals.once('SIGTERM', stop);
  });
  // Running turns hold timers (a pending interaction waits up to its lifetime): stop them, or the process
  // would outlive its server.
  server.mock.reset();
  await server.close();
  return 0;
}

/** What a non-loopback `--host` exposes, said on stderr. */
export function exposedWarning(hostname: string): string {
  return (
    `convo-mock: warning: listening on ${hostname}, which is not loopback: other machines can reach this ` +
    'mock and its inspector, and since it allows every origin, so can any web page opened on them ' +
    '(without --token, the token is the well-known mock-token). Use --host 127.0.0.1 unless you mean to share it.'
  );
}

function processIo(): CommandIo {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    signals: process,
  };
}

/**
 * The `--token` credentials in order, each with the `--name` and `--allow` that follow it; one with no
 * `--token` before it, or a second one of a kind for the same token, is a usage error (the token is never
 * echoed).
 */
function namedTokens(parsed: ReadonlyArray<{ kind: string; name?: string; value?: string | undefined }>) {
  const tokens: MockCredential[] = [];
  for (const { kind, name, value = '' } of parsed) {
    if (kind !== 'option') continue;
    if (name === 'token') tokens.push(parseTokenFlag(value));
    if (name === 'allow') allowTo(tokens, value);
    if (name !== 'name') continue;
    const last = tokens.at(-1);
    if (!last) throw new Error('--name names the --token just before it, and none comes before it');
    if (last.name !== undefined) throw new Error(`--token number ${tokens.length} is given --name twice`);
    if (!/^[\x20-\x7e]{1,64}$/.test(value))
      throw new Error('--name must be 1 to 64 printable ASCII characters');
    last.name = value;
  }
  return tokens;
}

/** Applies `--allow KIND=IDS` to the last `--token`: `skills=` none, `libraries=1,2` those two. */
function allowTo(tokens: MockCredential[], value: string): void {
  const last = tokens.at(-1);
  if (!last) throw new Error('--allow restricts the --token just before it, and none comes before it');
  const match = /^(skills|libraries)=((?:[1-9]\d{0,8})(?:,[1-9]\d{0,8})*)?$/.exec(value);
  if (!match)
    throw new Error('--allow must be skills=IDS or libraries=IDS, IDS a comma list of ids (or empty)');
  const kind = match[1] as 'skills' | 'libraries';
  if (last.allow?.[kind] !== undefined) {
    throw new Error(`--token number ${tokens.length} is given --allow ${kind} twice`);
  }
  const ids = match[2] === undefined ? [] : [...new Set(match[2].split(',').map(Number))];
  last.allow = { ...last.allow, [kind]: ids };
}

function integer(flag: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max)) throw new Error(`${flag} must be an integer from ${min} to ${max}`);
  return value;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
