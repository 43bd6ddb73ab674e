import { ValidationError } from '../errors/index.js';
import { TOKEN_NAMES, type Tokens } from './context.js';

/** What the command line asks for. */
export interface ConformanceArgs {
  /** `--url`. */
  url: string;
  /** `--token TOKEN` and `--token NAME=TOKEN`. */
  tokens: Tokens;
  /** `--json`: print the report as JSON. */
  json: boolean;
  /** `--only 6,7.1`. */
  only: string[] | undefined;
  /** `--help`. */
  help: boolean;
}

/** The usage text of `convo-conformance`. */
export const USAGE = `Usage: convo-conformance --url URL --token TOKEN [--token other=TOKEN] [--token limited=TOKEN]
                         [--only SECTIONS] [--json]

Runs the API v1 contract checks that need no scripted model against a live service and reports them by
section. It creates chats and skills of its own, deletes them at the end, and touches nothing else.

  --url URL              the service's base URL (without /api/v1)
  --token TOKEN          a credential with every scope
  --token other=TOKEN    a second credential (chat:read, chat:write): what it may not see of the first's
  --token limited=TOKEN  a credential with chat:read only: scope answers, the catalog's blocks
  --only SECTIONS        only these sections, comma-separated (6,7.1)
  --json                 print the report as JSON
Exit status: 0 when no check failed, 1 when one did, 2 on a usage error.`;

/** Parses the arguments; a `ValidationError` names what is wrong (an option or a position, never a value). */
export function parseArgs(argv: readonly string[]): ConformanceArgs {
  let url: string | undefined;
  const tokens: Partial<Tokens> = {};
  let json = false;
  let only: string[] | undefined;
  let help = false;
  const fail = (field: string, message: string): never => {
    throw new ValidationError([{ field, message }]);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? splitOnce(arg) : [arg, undefined];
    const value = () => inline ?? argv[++i] ?? fail(flag, 'needs a value');
    // A URL or a selection never starts with "--": what follows is the next option, not the value.
    const plain = () => {
      const given = value();
      return given.startsWith('--') ? fail(flag, 'needs a value') : given;
    };
    if (flag === '--url') url = plain();
    else if (flag === '--json') json = true;
    else if (flag === '--help' || flag === '-h') help = true;
    else if (flag === '--only')
      only = plain()
        .split(',')
        .map((section) => section.trim())
        .filter(Boolean);
    else if (flag === '--token') {
      const given = value();
      const [name, token] = splitOnce(given);
      if (token !== undefined && (TOKEN_NAMES as readonly string[]).includes(name)) {
        if (tokens[name as 'other']) fail('--token', `${name} given twice`);
        tokens[name as 'other'] = token;
      } else {
        if (tokens.main)
          fail('--token', 'the main credential given twice (name the others: other=, limited=)');
        tokens.main = given;
      }
    }
    // Named by position only: a stray argument may be a token (`--url --token SECRET`).
    else fail(`argument #${i + 1}`, 'unexpected (see --help)');
  }
  if (help) return { url: '', tokens: { main: '' }, json, only, help };
  if (!url) fail('--url', 'is required');
  if (!tokens.main) fail('--token', 'a credential with every scope is required');
  return { url: url as string, tokens: tokens as Tokens, json, only, help };
}

function splitOnce(text: string): [string, string | undefined] {
  const at = text.indexOf('=');
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
