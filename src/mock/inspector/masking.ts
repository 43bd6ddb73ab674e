import {
  MIN_SECRET_LENGTH,
  REDACTED,
  type Redactor,
  redactJson,
  redactorOf,
  secretForms,
  secretPattern,
  withoutSecretStart,
} from '../../contract/redact.js';

/** A text as the inspector shows it: masked, cut at a bound, with the length it had. */
export interface CutText {
  /** The text kept, every token masked. */
  text: string;
  /** Its full length in characters, before the cut. */
  chars: number;
  /** Whether `text` is only the start. */
  truncated: boolean;
}

/**
 * How the inspector masks the mock's tokens (every configured one, `mock-token` when it is the credential)
 * in whatever it shows: the contract's one redaction rule (`redactorOf`: raw, JSON-escaped and
 * percent-encoded forms), applied before any cut, and a cut that never ends in a token's start. Tokens
 * under `MIN_SECRET_LENGTH` characters are masked only where they are a whole value (a header value, a
 * path segment, a query name or value): inside a text they would hide ordinary words.
 */
export class TokenMask {
  readonly #redact: Redactor;
  readonly #pattern: RegExp | undefined;
  readonly #forms: readonly string[];
  readonly #short: ReadonlySet<string>;
  /** The longest form of a token, in UTF-8 bytes: how far past a cut a capture must read to see one whole. */
  readonly margin: number;

  constructor(tokens: readonly string[]) {
    this.#redact = redactorOf(tokens);
    this.#pattern = secretPattern(tokens);
    this.#forms = secretForms(tokens);
    this.#short = new Set(tokens.filter((token) => token.length < MIN_SECRET_LENGTH));
    this.margin = Math.max(0, ...this.#forms.map((form) => new TextEncoder().encode(form).length));
  }

  /** `text` with every token masked. */
  text(text: string): string {
    return this.#redact(text);
  }

  /** Where `text` holds a token (in any form `text()` masks), as `[start, end)` pairs, first to last. */
  spans(text: string): Array<[number, number]> {
    if (this.#pattern === undefined) return [];
    return [...text.matchAll(this.#pattern)].map((match) => [match.index, match.index + match[0].length]);
  }

  /** A whole value (header, path segment, query name or value): also masked when it is a short token. */
  value(text: string): string {
    return this.#short.has(text) ? REDACTED : this.#redact(text);
  }

  /** A JSON value (metadata, a payload) with every string and key masked. */
  json(value: unknown): unknown {
    return redactJson(value, this.#redact);
  }

  /**
   * `text` masked, then cut at `max` characters. `whole: false` says `text` is itself only the start of
   * something longer (a capture cut short), so it counts as cut. What is cut never ends in a token's start.
   */
  cut(text: string, max: number, whole = true): CutText {
    // Masking all of a long text would cost its length: a window past the cut holds every token the cut
    // keeps a part of.
    const window = text.length > max + this.margin ? text.slice(0, max + this.margin) : text;
    const masked = this.#redact(window);
    const truncated = !whole || window !== text || masked.length > max;
    const kept = truncated ? withoutSecretStart(masked.slice(0, max), this.#forms) : masked;
    return { text: kept, chars: text.length, truncated };
  }

  /**
   * A body's text masked: when it is whole JSON, on its decoded strings (JSON may escape any character of
   * a token as `\uXXXX`, a slash as `\/`), re-serialized only when that masked something; otherwise on the
   * raw text, and on it with those escapes decoded when only that shows a token.
   */
  body(text: string, whole: boolean): string {
    // Without a backslash nothing is escaped: the raw text is what a decoder reads.
    if (!text.includes('\\')) return this.#redact(text);
    if (whole) {
      const parsed = parseJson(text);
      if (parsed.ok) {
        const masked = JSON.stringify(this.json(parsed.value));
        return masked === JSON.stringify(parsed.value) ? this.#redact(text) : masked;
      }
    }
    const decoded = decodeEscapes(text);
    const masked = this.#redact(decoded);
    return masked === decoded ? this.#redact(text) : masked;
  }

  /**
   * `url` with every token masked in its path segments and query names and values (decoded first, so an
   * escaped token goes too; the mask escaped, so the URL parses the same way), and no user info.
   */
  url(url: URL): URL {
    const out = new URL(url.href);
    out.pathname = out.pathname
      .split('/')
      .map((segment) => {
        const plain = decoded(segment);
        const masked = this.value(plain);
        return masked === plain ? segment : encodeURIComponent(masked);
      })
      .join('/');
    const query = new URLSearchParams();
    for (const [name, value] of out.searchParams) query.append(this.value(name), this.value(value));
    if (query.toString() !== out.searchParams.toString()) out.search = query.toString();
    out.username = '';
    out.password = '';
    return out;
  }
}

/** The path and query of a masked URL as the table shows it: `[redacted]` unescaped. */
export function displayPath(url: URL): string {
  return (url.pathname + url.search).replaceAll(encodeURIComponent(REDACTED), REDACTED);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** `text` with each `\/` and `\uXXXX` escape of a printable character decoded (an escaped backslash stays). */
function decodeEscapes(text: string): string {
  return text.replace(/\\(\\|\/|u([0-9a-fA-F]{4}))/g, (all, escaped: string, hex: string | undefined) => {
    if (escaped === '/') return '/';
    if (hex === undefined) return all;
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return /[\p{L}\p{N}\p{P}\p{S}]/u.test(char) && char !== '"' && char !== '\\' ? char : all;
  });
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A delta's text as kept, and how to rewrite what was kept of it. */
interface KeptDelta {
  text: string;
  rewrite: (text: string) => void;
}

/**
 * Masks a token the model writes across deltas, which no delta holds whole: the latest deltas' texts, as
 * many as can hold a part of a token, are read joined; a token that the new delta completes and that began
 * in an earlier one is masked in each delta it spans (`[redacted]` where it starts, the rest of it dropped),
 * through each delta's `rewrite`. A token within one delta is that delta's own mask's.
 */
export class DeltaMask {
  #recent: KeptDelta[] = [];
  readonly #mask: TokenMask;

  constructor(mask: TokenMask) {
    this.#mask = mask;
  }

  /** A delta with `replace: true`: the text starts over, so no token spans it and the ones before. */
  restart(): void {
    this.#recent = [];
  }

  /** Adds a delta's text; masks the token it completes that began in a delta before, if one did. */
  add(text: string, rewrite: (text: string) => void): void {
    const recent = [...this.#recent, { text, rewrite }];
    const joined = recent.map((delta) => delta.text).join('');
    const begins = joined.length - text.length;
    // Spans do not overlap: one at most runs from before the new delta into it.
    const span = this.#mask.spans(joined).find(([from, to]) => from < begins && to > begins);
    if (span) {
      const [from, to] = span;
      let start = 0;
      for (const delta of recent) {
        const end = start + delta.text.length;
        if (end > from) {
          const head = delta.text.slice(0, Math.max(0, from - start));
          delta.text = `${head}${start <= from ? REDACTED : ''}${delta.text.slice(to - start)}`;
          delta.rewrite(delta.text);
        }
        start = end;
      }
    }
    // The fewest latest deltas that hold a token's longest form: a token that begins before them cannot
    // end in the next one.
    let held = 0;
    let first = recent.length;
    // Stryker disable next-line EqualityOperator,AssignmentOperator: how many deltas are kept shows only in memory (a token cannot span more than a margin of text, so keeping more masks the same).
    while (first > 0 && held < this.#mask.margin) held += recent[--first]!.text.length;
    this.#recent = recent.slice(first);
  }
}
