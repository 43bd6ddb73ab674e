/**
 * The `[[mock:NAME key=value ...]]` directives of mock-conventions.md, read from a turn's content.
 */
import type { PlainIssue } from '../../contract/issues.js';

/** The directive names mock-conventions.md defines. */
export const DIRECTIVE_NAMES = [
  'words',
  'slow',
  'hang',
  'failover',
  'tool_approval',
  'plan_approval',
  'elicitation',
  'auth_required',
  'error',
] as const;

/** A directive name. */
type DirectiveName = (typeof DIRECTIVE_NAMES)[number];

/** One directive as written: its name and its `key=value` parameters. */
export interface Directive {
  /** Name. */
  name: DirectiveName;
  /** Parameters, as text. */
  params: ReadonlyMap<string, string>;
}

/** A content read as a script: the directives in order, and the text without them. */
export interface Script {
  /** Known directives, in order of appearance (unknown names are dropped). */
  directives: Directive[];
  /** The content with every directive removed and whitespace collapsed. */
  text: string;
}

// `[[mock:name ...]]`; anything up to the closing brackets is the parameter list.
const DIRECTIVE = /\[\[mock:([A-Za-z_]+)([^\]]*)\]\]/g;

/** Reads the directives of `content`. */
export function parseScript(content: string): Script {
  const directives: Directive[] = [];
  for (const match of content.matchAll(DIRECTIVE)) {
    const name = (match[1] ?? '').toLowerCase();
    if (!isDirectiveName(name)) continue;
    const params = new Map<string, string>();
    for (const pair of (match[2] ?? '').trim().split(/\s+/)) {
      const eq = pair.indexOf('=');
      if (eq > 0) params.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    directives.push({ name, params });
  }
  const text = content.replace(DIRECTIVE, ' ').replace(/\s+/g, ' ').trim();
  return { directives, text };
}

/**
 * The bounds of the directives' parameters. A value past its bound, or not of its form, is refused before
 * the turn starts (422 `api_v1_validation_error` on `content`, naming the directive and the parameter):
 * the conventions promise N words and M ms, so a value is never clamped to something else.
 * - `words n`: an integer from 0 to 100,000 (an answer of about 1 MB, which a turn still streams without
 *   holding other requests);
 * - `slow ms`: an integer from 0 to 2,592,000,000 (30 days, more than a timer holds at once: the wait is
 *   re-armed in steps);
 * - `error code`: 1 to 64 characters of `a-z`, `0-9` and `_` (a code of section 6, or one a model invents).
 *
 * The other directives take no parameter; how many a content holds is bounded by its 64,000 characters.
 */
export const DIRECTIVE_LIMITS = {
  /** `[[mock:words n=N]]`: the most words. */
  wordsN: 100_000,
  /** `[[mock:slow ms=M]]`: the longest wait before each delta, in ms (30 days). */
  slowMs: 30 * 24 * 3_600_000,
  /** `[[mock:error code=C]]`: the longest code, in characters. */
  errorCode: 64,
} as const;

/** The integer parameters, with their bounds (`CODE` checks the code). */
const INTEGER_PARAMS: Partial<Record<DirectiveName, { key: string; max: number }>> = {
  words: { key: 'n', max: DIRECTIVE_LIMITS.wordsN },
  slow: { key: 'ms', max: DIRECTIVE_LIMITS.slowMs },
};
const CODE = new RegExp(`^[a-z0-9_]{1,${DIRECTIVE_LIMITS.errorCode}}$`);

/** What is wrong with the parameters of `script`'s directives (`DIRECTIVE_LIMITS`): empty when nothing. */
export function scriptIssues(script: Script): PlainIssue[] {
  const issues: PlainIssue[] = [];
  for (const directive of script.directives) {
    const integer = INTEGER_PARAMS[directive.name];
    if (integer) {
      const value = directive.params.get(integer.key);
      if (value !== undefined && integerParam(directive) === undefined) {
        issues.push({
          field: 'content',
          message: `[[mock:${directive.name} ${integer.key}]] must be an integer from 0 to ${integer.max}`,
          limit: integer.max,
        });
      }
    }
    const code = directive.name === 'error' ? directive.params.get('code') : undefined;
    if (code !== undefined && !CODE.test(code)) {
      issues.push({
        field: 'content',
        message: `[[mock:error code]] must be 1 to ${DIRECTIVE_LIMITS.errorCode} characters of a-z, 0-9 and _`,
        limit: DIRECTIVE_LIMITS.errorCode,
      });
    }
  }
  return issues;
}

/**
 * The integer parameter of a `words` or `slow` directive (`n`, `ms`), or undefined when absent, not a
 * non-negative integer, or past its bound (`scriptIssues` reports those).
 */
export function integerParam(directive: Directive): number | undefined {
  const bound = INTEGER_PARAMS[directive.name];
  const value = bound && directive.params.get(bound.key);
  if (!bound || value === undefined || !/^\d+$/.test(value)) return undefined;
  const number = Number(value);
  return number <= bound.max ? number : undefined;
}

function isDirectiveName(name: string): name is DirectiveName {
  return (DIRECTIVE_NAMES as readonly string[]).includes(name);
}
