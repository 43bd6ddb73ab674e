import { ValidationError } from '../errors/index.js';
import { parseArgs, USAGE } from './args.js';
import { formatReport } from './report.js';
import { runConformance } from './run.js';

/** Where the command writes. */
export interface CommandIo {
  /** Standard output. */
  out(text: string): void;
  /** Standard error. */
  err(text: string): void;
}

/** Runs `convo-conformance` with `argv`; resolves to its exit status (0 when no check failed). */
export async function main(argv: readonly string[], io: CommandIo, signal?: AbortSignal): Promise<number> {
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(argv);
    if (args.help) {
      io.out(USAGE);
      return 0;
    }
    const report = await runConformance({ url: args.url, tokens: args.tokens, only: args.only, signal });
    io.out(args.json ? JSON.stringify(report, null, 2) : formatReport(report));
    return report.ok ? 0 : 1;
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    io.err(`convo-conformance: ${error.message}\n\n${USAGE}`);
    return 2;
  }
}
