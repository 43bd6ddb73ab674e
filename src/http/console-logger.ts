import { NO_REDACTION, type Redactor, redactJson } from '../contract/redact.js';
import { ValidationError } from '../errors/index.js';
import { readEnv } from './env.js';
import type { Logger } from './transport.js';

/** The levels of `CONVO_LOG`, from the most detail to none. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'off'];
const METHODS = ['debug', 'info', 'warn', 'error'] as const;

/**
 * A logger writing the lines at `level` and above to `console`, each prefixed `[convo-sdk]` (none for
 * `off`). The SDK's lines carry no credential and no body, so neither does the console.
 */
export function consoleLogger(level: LogLevel): Logger {
  const logger: Logger = {};
  // `off` is past the last method: the slice is empty.
  for (const method of METHODS.slice(LEVELS.indexOf(level))) {
    // `console` is looked up at each call, so one replaced later (a log collector, a test's spy) gets it.
    logger[method] = (message, fields) =>
      fields === undefined
        ? console[method](`[convo-sdk] ${message}`)
        : console[method](`[convo-sdk] ${message}`, fields);
  }
  return logger;
}

/** The console logger `CONVO_LOG` names; `undefined` when it is unset or `off`. */
export function loggerFromEnv(): Logger | undefined {
  const value = readEnv('CONVO_LOG')?.toLowerCase();
  if (value === undefined) return undefined;
  const level = LEVELS.find((known) => known === value);
  if (!level) {
    const shown = JSON.stringify(value.slice(0, 20));
    throw new ValidationError([
      { field: 'CONVO_LOG', message: `must be one of ${LEVELS.join(', ')}, not ${shown}` },
    ]);
  }
  return level === 'off' ? undefined : consoleLogger(level);
}

/**
 * `logger` with the client's token masked in every line and field it gets (a field may quote what a service
 * answered: an error's message, an off-schema event's problem); `undefined` when there is no logger. Only the
 * methods `logger` has are given, so that a line nobody reads is not built.
 */
export function redactingLogger(logger: Logger | undefined, redact: Redactor): Logger | undefined {
  if (!logger || redact === NO_REDACTION) return logger;
  const masked: Logger = {};
  for (const method of METHODS) {
    if (!logger[method]) continue;
    masked[method] = (message, fields) =>
      fields === undefined
        ? logger[method]?.(redact(message))
        : logger[method]?.(redact(message), redactJson(fields, redact) as Record<string, unknown>);
  }
  return masked;
}
