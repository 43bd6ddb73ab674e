import type { PlainIssue } from './issues.js';

/** Bounds of a `requested_schema` this client validates against: it comes from a third-party connector. */
const SCHEMA_BOUNDS = {
  /** Largest schema, in characters of its JSON. */
  maxChars: 64 * 1024,
  /** Deepest nesting of objects and arrays. */
  maxDepth: 32,
  /** Longest `pattern`. */
  maxPatternChars: 1024,
} as const;

/** Keywords that point elsewhere: a flat elicitation form (4.5) needs none, and `{$ref:'#'}` never ends. */
const REFERENCES = new Set(['$ref', '$dynamicRef', '$recursiveRef']);

/**
 * What makes a `requested_schema` unsafe to validate against, found in time linear in its size: too large
 * or too deep, references, and patterns that do not compile or could backtrack for seconds (a quantified
 * group that holds a quantifier, such as `^(a+)+$`). Field names are `requested_schema.<path>`.
 */
export function schemaHazards(schema: unknown): PlainIssue[] {
  let json: string;
  try {
    json = JSON.stringify(schema) ?? '';
  } catch {
    return [{ field: 'requested_schema', message: 'is not plain JSON' }];
  }
  if (json.length > SCHEMA_BOUNDS.maxChars) {
    return [{ field: 'requested_schema', message: `is larger than ${SCHEMA_BOUNDS.maxChars} characters` }];
  }
  const issues: PlainIssue[] = [];
  const walk = (node: unknown, path: string, depth: number): void => {
    if (typeof node !== 'object' || node === null) return;
    if (depth > SCHEMA_BOUNDS.maxDepth) {
      issues.push({ field: path, message: `nests deeper than ${SCHEMA_BOUNDS.maxDepth} levels` });
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      const at = `${path}.${key}`;
      if (REFERENCES.has(key))
        issues.push({ field: at, message: 'is a reference, which a form schema may not use' });
      else if (key === 'pattern' && typeof value === 'string') {
        const problem = patternHazard(value);
        if (problem) issues.push({ field: at, message: problem });
      } else if (key === 'patternProperties' && typeof value === 'object' && value !== null) {
        for (const name of Object.keys(value)) {
          const problem = patternHazard(name);
          if (problem) issues.push({ field: `${at}.${name}`, message: problem });
        }
      }
      walk(value, at, depth + 1);
    }
  };
  walk(schema, 'requested_schema', 0);
  return issues;
}

/** Why a pattern is refused, or undefined when it is safe to run. */
function patternHazard(pattern: string): string | undefined {
  if (pattern.length > SCHEMA_BOUNDS.maxPatternChars) {
    return `is longer than ${SCHEMA_BOUNDS.maxPatternChars} characters`;
  }
  try {
    new RegExp(pattern, 'u');
  } catch {
    return 'is not a valid regular expression';
  }
  return nestedQuantifier(pattern) ? 'repeats a repeated group, which can backtrack for seconds' : undefined;
}

/**
 * Whether a repeated group can begin with a repetition or has alternatives (`(a+)+`, `((ab)*c)*`, `(a|a)*`):
 * the shapes whose backtracking grows exponentially. A group led by a fixed atom (`(\.[a-z]+)*`) is not.
 */
function nestedQuantifier(pattern: string): boolean {
  // Per open group: is its first atom still to come, does it begin with a repetition, has it alternatives?
  const groups: { first: boolean; risky: boolean }[] = [];
  const quantifierAt = (i: number) => '*+?{'.includes(pattern[i] ?? 'x');
  // An atom ended just before `next`: it may be the first atom of the group it is in.
  const atomEnded = (next: number, risky: boolean) => {
    const group = groups.at(-1);
    if (!group?.first) return;
    group.first = false;
    if (risky || quantifierAt(next)) group.risky = true;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      atomEnded(i + 1, false);
    } else if (c === '[') {
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      atomEnded(i + 1, false);
    } else if (c === '(') {
      groups.push({ first: true, risky: false });
      if (pattern[i + 1] === '?') i += pattern[i + 2] === '<' && '=!'.includes(pattern[i + 3] ?? '') ? 3 : 2;
    } else if (c === ')') {
      const group = groups.pop();
      const repeated = '*+{'.includes(pattern[i + 1] ?? 'x');
      if (group?.risky && repeated) return true;
      atomEnded(i + 1, group?.risky ?? false);
    } else if (c === '|') {
      const group = groups.at(-1);
      if (group) group.risky = true;
    } else if (!'*+?{}^$'.includes(c ?? '')) {
      atomEnded(i + 1, false);
    }
  }
  return false;
}
