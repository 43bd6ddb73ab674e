import { ValidationError } from '../index.js';
import { TOKEN_NAMES, type Tokens } from './context.js';

/** What the command line asks for. */
export interface ConformanceArgs {
  /** `--url`. */
  url: string;
  /** `--token TOKEN` and `--token NAME=TOKEN` (the main one may instead come from the environment or a file). */
  tokens: Partial<Tokens>;
  /** `--token-file PATH`: a file of `NAME=TOKEN` lines. */
  tokenFile: string | undefined;
  /** `--junit PATH`: also write the report as JUnit XML there. */
  junit: string | undefined;
  /** `--json`: print the report as JSON. */
  json: boolean;
  /** `--only 6,7.1`. */
  only: string[] | undefined;
  /** `--outside-user ID`: a user of another company (else `CONVO_OUTSIDE_USER_ID`). */
  outsideUser: string | undefined;
  /** `--help`. */
  help: boolean;
}

/** The usage text of `convo-conformance`. */
export const USAGE = `Usage: convo-conformance --url URL [--token TOKEN] [--token other=TOKEN] [--token limited=TOKEN]
                         [--token restricted=TOKEN] [--token-file PATH] [--outside-user ID]
                         [--only SECTIONS] [--json] [--junit PATH]

Runs the API v1 contract checks that need no scripted model against a live service and reports them by
section. It creates chats and skills of its own, deletes them at the end, and touches nothing else.

  --url URL              the service's base URL (without /api/v1)
  --token TOKEN          a credential with every scope (or CONVO_API_TOKEN)
  --token other=TOKEN    a second credential (chat:read, chat:write): what it may not see of the first's
                         (or CONVO_API_TOKEN_OTHER)
  --token limited=TOKEN  a credential with chat:read only: scope answers, the catalog's blocks
                         (or CONVO_API_TOKEN_LIMITED)
  --token restricted=TOKEN  a credential restricted to an allowlist of skills: creating one is refused
                         (or CONVO_API_TOKEN_RESTRICTED)
  --token-file PATH      a file of main=, other=, limited=, restricted=TOKEN lines (# comments)
  --outside-user ID      the id of a user outside the main credential's company: sharing a skill with
                         them is refused (or CONVO_OUTSIDE_USER_ID)
  --only SECTIONS        only these sections, comma-separated (6,7.1)
  --json                 print the report as JSON
  --junit PATH           also write the report as JUnit XML to PATH
A token on the command line is visible to other users of the machine (ps): prefer the environment or a file.
Exit status: 0 when no check failed (warnings included), 1 when one did, 2 on a usage or setup error,
3 when the run could not run (the service did not answer) or broke.`;

/** Parses the arguments; a `ValidationError` names what is wrong (an option or a position, never a value). */
export function parseArgs(argv: readonly string[]): ConformanceArgs {
  let url: string | undefined;
  const tokens: Partial<Tokens> = {};
  let json = false;
  let tokenFile: string | undefined;
  let junit: string | undefined;
  let only: string[] | undefined;
  let outsideUser: string | undefined;
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
    else if (flag === '--token-file') tokenFile = plain();
    else if (flag === '--junit') junit = plain();
    else if (flag === '--outside-user') outsideUser = plain();
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
          fail('--token', 'the main credential given twice (name the others: other=, limited=, restricted=)');
        tokens.main = given;
      }
    }
    // Named by position only: a stray argument may be a token (`--url --token SECRET`).
    else fail(`argument #${i + 1}`, 'unexpected (see --help)');
  }
  if (!help && !url) fail('--url', 'is required');
  return { url: url ?? '', tokens, tokenFile, junit, json, only, outsideUser, help };
}

function splitOnce(text: string): [string, string | undefined] {
  const at = text.indexOf('=');
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
