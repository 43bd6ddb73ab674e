import { ConnectionError, ValidationError, type ValidationIssue } from '../index.js';
import { CHECKS, type Check, expectedOf } from './checks/index.js';
import { Context, type Tokens } from './context.js';
import { coverageOf } from './coverage.js';
import { notExercised } from './failures.js';
import { sanitizeJson, sanitizerOf } from './sanitize.js';
import { blockedBy, type CheckResult, type ConformanceReport, type Outcome } from './types.js';
import { Failure, Skip, Warning } from './verdict.js';
import { Wire } from './wire.js';

/** What `runConformance` takes. */
export interface ConformanceOptions {
  /** The service's base URL, without `/api/v1` (`https://staging.example.com`). */
  url: string;
  /** The credentials: `main` with every scope; `other` and `limited` unlock more checks. */
  tokens: Tokens;
  /** Runs only the checks of these sections (`['6', '7']` takes 6, 7.1, 7.3...); all when absent. */
  only?: readonly string[] | undefined;
  /**
   * The id of a user of another company than the main credential's (4.1: ids come from `GET /users`), for
   * the refusal to share a skill outside it (7.2); that check is skipped without it.
   */
  outsideUserId?: number | undefined;
  /** Stops the run: the checks left are skipped and what was created is still cleaned up. */
  signal?: AbortSignal | undefined;
  /**
   * The most requests the checks send, the first check of the main credential included (default 300, at most
   * 10,000); the cleanup may send one more per chat or skill left to delete.
   */
  maxRequests?: number | undefined;
  /** How long one request, a whole stream included, may take (default 120,000 ms). */
  requestTimeoutMs?: number | undefined;
  /** How long the whole run may take, the cleanup included (default 600,000 ms). */
  timeoutMs?: number | undefined;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch | undefined;
}

/**
 * Statements a run does not check, and why: behaviours only a scripted model can show, or that the spec
 * leaves open. The failures of `ENDPOINT_DOCS` no check provokes follow them (`failures.ts`).
 */
const NOT_CHECKED: ReadonlyArray<Omit<CheckResult, 'outcome'>> = [
  {
    section: '2.2',
    title: 'what a soft-deleted skill answers when read or listed',
    reason:
      'the spec does not say: 2.2 has only "A skill is deleted softly." (2.3 says a deleted chat disappears)',
  },
  {
    section: '4.5',
    title: 'interaction answers accepted and resolved',
    reason: 'needs a scripted model: a turn that asks',
  },
  { section: '6', title: 'message.error and its codes', reason: 'needs a scripted model: a turn that fails' },
  { section: '6', title: 'ping every 15 s of silence', reason: 'needs a scripted model: a silent turn' },
];

/** The share of the run's time kept for the cleanup, whatever stopped the checks: a quarter, at most a minute. */
const cleanupMs = (total: number) => Math.min(60_000, Math.ceil(total / 4));

const SECTION = /^\d+(\.\d+)*$/;

/**
 * Runs the contract checks that need no scripted model against a live service and reports each by spec
 * section. Bounded in requests and time; deletes what it created and nothing else.
 *
 * @throws {ValidationError} when the URL, a token, `only` or a bound is unusable, or the service refuses the
 *   main token (401); nothing is created then.
 * @throws {ConnectionError} when the service does not answer its first request: the run could not run, and
 *   nothing was created.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const { url, only } = checkOptions(options);
  const selected = (section: string) =>
    !only || only.some((wanted) => section === wanted || section.startsWith(`${wanted}.`));
  const checks = CHECKS.filter((check) => selected(check.section));
  if (checks.length === 0) {
    const sections = [...new Set(CHECKS.map((check) => check.section))].join(', ');
    throw new ValidationError([
      { field: 'only', message: `${only?.join(', ')} selects no check (the sections checked: ${sections})` },
    ]);
  }
  const started = Date.now();
  const total = options.timeoutMs ?? 600_000;
  // The checks stop early enough for the cleanup to finish within the run's whole bound.
  const deadline = AbortSignal.timeout(total);
  const signal = AbortSignal.any([
    AbortSignal.timeout(total - cleanupMs(total)),
    ...(options.signal ? [options.signal] : []),
  ]);
  const wire = new Wire({
    url,
    signal,
    maxRequests: options.maxRequests ?? 300,
    requestTimeoutMs: options.requestTimeoutMs ?? 120_000,
    fetch: options.fetch ?? globalThis.fetch,
    secrets: Object.values(options.tokens ?? {}),
  });
  const ctx = new Context(wire, options.tokens, options.outsideUserId);
  const results: CheckResult[] = [];
  await checkMainToken(wire, options.tokens.main);
  // One defect, one FAIL: a later failure with the same expected and got is reported as blocked by the first.
  const defects = new Map<string, Check>();
  try {
    for (const check of checks) {
      const head = { section: check.section, title: check.title };
      if (signal.aborted) {
        results.push({ ...head, outcome: 'skip', reason: 'the run was stopped or ran out of time' });
        continue;
      }
      ctx.current = check;
      try {
        await check.run(ctx);
        results.push({ ...head, outcome: 'pass' });
      } catch (error) {
        const verdict = verdictOf(error, wire);
        const defect = verdict.outcome === 'fail' ? `${verdict.expected} => ${verdict.got}` : undefined;
        const first = defect === undefined ? undefined : defects.get(defect);
        if (first) results.push({ ...head, outcome: 'skip', reason: `blocked by ${blockedBy(first)}` });
        else if (verdict.outcome === 'fail') {
          results.push({ ...head, ...verdict, expected: expectedOf(check, verdict.expected ?? '') });
        } else results.push({ ...head, ...verdict });
        if (defect !== undefined && !first) defects.set(defect, check);
      }
    }
    for (const skipped of [...NOT_CHECKED, ...notExercised()].filter((item) => selected(item.section))) {
      results.push({ ...skipped, outcome: 'skip' });
    }
  } finally {
    // Cleanup gets its own allowance of requests, so a run that used its bound still leaves nothing behind.
    wire.allow(ctx.holdings, deadline);
    const left = await ctx.cleanup();
    if (left.length > 0) {
      results.push({
        section: '4',
        title: 'what the run created is deleted',
        outcome: 'fail',
        expected: 'each DELETE answered 200',
        got: `left behind: ${left.join(', ')}`,
      });
    }
  }
  const counts: Record<Outcome, number> = { pass: 0, fail: 0, warn: 0, skip: 0 };
  for (const result of results) counts[result.outcome]++;
  // Whatever the service sent reaches the report only through here: no credential, no control character.
  const sanitize = sanitizerOf(Object.values(options.tokens));
  return {
    url,
    results: sanitizeJson(results, sanitize),
    counts,
    coverage: sanitizeJson(coverageOf(wire), sanitize),
    requests: wire.requests,
    durationMs: Date.now() - started,
    ok: counts.fail === 0,
  };
}

/**
 * The outcome of a check that threw: its failure or skip, or, for anything else (an answer the check could
 * not read), a failure showing the error and the last answer.
 */
function verdictOf(error: unknown, wire: Wire): Omit<CheckResult, 'section' | 'title'> {
  if (error instanceof Failure) {
    const { expected, got, request } = error;
    const outcome = error instanceof Warning ? 'warn' : 'fail';
    return { outcome, expected, got, request, requestId: request?.requestId };
  }
  if (error instanceof Skip) return { outcome: 'skip', reason: error.message };
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const last = wire.last;
  return {
    outcome: 'fail',
    expected: 'an answer the check can read',
    got: last ? `${what}; the last answer: ${last.call} ${last.status} ${last.summary}` : what,
    request: last && { call: last.call, status: last.status, requestId: last.requestId },
    requestId: last?.requestId,
  };
}

/**
 * Asks once whether the service answers and accepts the main credential: no answer is a run that could not
 * run, a refusal a setup error; neither is 30 failures of the contract.
 */
async function checkMainToken(wire: Wire, token: string): Promise<void> {
  let answer: Awaited<ReturnType<Wire['call']>>;
  try {
    answer = await wire.call('GET', '/api/v1/chats?size=1', { token, list: true });
  } catch (error) {
    // No answer at all: the run could not run. Anything else (stopped, an answer it could not read) the
    // checks report, each with its reason.
    if (error instanceof Failure && error.request?.status === undefined) {
      throw new ConnectionError(
        `the service did not answer GET /api/v1/chats?size=1 (${error.got}): nothing was checked`,
      );
    }
    return;
  }
  if (answer.status === 401) {
    throw new ValidationError([
      { field: 'tokens.main', message: 'was refused by the service (401): give a credential it accepts' },
    ]);
  }
}

function checkOptions(options: ConformanceOptions): { url: string; only: readonly string[] | undefined } {
  const issues: ValidationIssue[] = [];
  let url = '';
  try {
    const parsed = new URL(options.url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
    // Credentials go in tokens; a password in the URL would be printed with the report.
    if (parsed.username || parsed.password) {
      issues.push({ field: 'url', message: 'must not hold a user or password (give credentials as tokens)' });
    } else url = parsed.href.replace(/\/api\/v1\/?$/, '/');
  } catch {
    issues.push({ field: 'url', message: 'must be an http or https URL' });
  }
  for (const [name, token] of Object.entries(options.tokens ?? {})) {
    if (token === undefined && name !== 'main') continue;
    if (typeof token !== 'string' || !/^[\x21-\x7e]{1,4096}$/.test(token)) {
      issues.push({ field: `tokens.${name}`, message: 'must be 1 to 4096 visible ASCII characters' });
    }
  }
  const bad = options.only?.filter((section) => !SECTION.test(section));
  if (bad && bad.length > 0) issues.push({ field: 'only', message: 'must list sections such as 6 or 7.1' });
  for (const [field, max] of [
    ['outsideUserId', Number.MAX_SAFE_INTEGER],
    ['maxRequests', 10_000],
    ['requestTimeoutMs', 3_600_000],
    ['timeoutMs', 86_400_000],
  ] as const) {
    const value = options[field];
    if (value !== undefined && !(Number.isInteger(value) && value >= 1 && value <= max)) {
      issues.push({ field, message: `must be an integer from 1 to ${max}`, limit: max });
    }
  }
  const [first, ...rest] = issues;
  if (first) throw new ValidationError([first, ...rest]);
  return { url, only: options.only };
}
