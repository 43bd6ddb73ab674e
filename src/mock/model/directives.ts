/**
 * The `[[mock:NAME key=value ...]]` directives of mock-conventions.md, read from a turn's content.
 */

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
export type DirectiveName = (typeof DIRECTIVE_NAMES)[number];

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

/** A non-negative integer parameter, or undefined when absent or not one. */
export function intParam(directive: Directive, key: string): number | undefined {
  const value = directive.params.get(key);
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

function isDirectiveName(name: string): name is DirectiveName {
  return (DIRECTIVE_NAMES as readonly string[]).includes(name);
}
