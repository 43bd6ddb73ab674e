import { open } from 'node:fs/promises';
import { ValidationError } from '../index.js';
import { TOKEN_NAMES, type Tokens } from './context.js';

/** The environment variable of each credential. */
const TOKEN_ENV = {
  main: 'CONVO_API_TOKEN',
  other: 'CONVO_API_TOKEN_OTHER',
  limited: 'CONVO_API_TOKEN_LIMITED',
  restricted: 'CONVO_API_TOKEN_RESTRICTED',
} as const;

/** The most bytes of a `--token-file`: a few credentials, not a document. */
const MAX_FILE_BYTES = 64 * 1024;

type Name = keyof typeof TOKEN_ENV;
const NAMES: readonly Name[] = ['main', ...TOKEN_NAMES];

const fail = (field: string, message: string): never => {
  throw new ValidationError([{ field, message }]);
};

/** The `NAME=TOKEN` lines of a token file; a line is named by its number, never shown. */
export function parseTokenFile(text: string): Partial<Tokens> {
  const tokens: Partial<Tokens> = {};
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const at = line.indexOf('=');
    const name = line.slice(0, Math.max(at, 0)) as Name;
    if (at < 0 || !NAMES.includes(name)) {
      fail(
        `--token-file line ${index + 1}`,
        'must be main=TOKEN, other=TOKEN, limited=TOKEN or restricted=TOKEN',
      );
    }
    if (tokens[name] !== undefined) fail(`--token-file line ${index + 1}`, `${name} given twice`);
    tokens[name] = line.slice(at + 1);
  }
  return tokens;
}

async function readTokenFile(path: string): Promise<string> {
  const file = await open(path).catch(() => fail('--token-file', 'cannot be opened'));
  try {
    const buffer = Buffer.alloc(MAX_FILE_BYTES + 1);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MAX_FILE_BYTES) fail('--token-file', `is larger than ${MAX_FILE_BYTES} bytes`);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await file.close();
  }
}

/**
 * The run's credentials, each from its flag, else the token file, else its environment variable; fails
 * when no main credential came from any of them.
 */
export async function resolveTokens(
  flags: Partial<Tokens>,
  tokenFile: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Tokens> {
  const file = tokenFile === undefined ? {} : parseTokenFile(await readTokenFile(tokenFile));
  const pick = (name: Name) => flags[name] ?? file[name] ?? (env[TOKEN_ENV[name]] || undefined);
  const main =
    pick('main') ??
    fail('--token', `a credential with every scope is required (or ${TOKEN_ENV.main}, or --token-file)`);
  return { main, other: pick('other'), limited: pick('limited'), restricted: pick('restricted') };
}
