/** What stands in, in any text the package shows, for a credential that text held. */
export const REDACTED = '[redacted]';

/**
 * Credentials shorter than this are not searched for: masking every "abc" in a text would hide the text,
 * and no service issues such a token.
 */
export const MIN_SECRET_LENGTH = 4;

/** Replaces every credential a text holds by `[redacted]`; the same text when it holds none. */
export type Redactor = (text: string) => string;

/** The redactor of no credential: hands every text back unchanged. */
export const NO_REDACTION: Redactor = (text) => text;

/** The secrets worth searching for, longest first, so that a token that holds another is masked whole. */
const searched = (secrets: Iterable<string | undefined>) =>
  [...new Set(secrets)]
    .filter((secret): secret is string => secret !== undefined && secret.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);

/**
 * The literal forms `secrets` travel in, longest first: each as written, JSON-escaped (as a body or an
 * echoed header quotes it) and percent-encoded in upper- and lower-case hex (as a URL carries it); those
 * under `MIN_SECRET_LENGTH` left out. What a cut must not end inside of (`withoutSecretStart`).
 */
export function secretForms(secrets: Iterable<string | undefined>): string[] {
  const forms = new Set<string>();
  for (const secret of searched(secrets)) {
    const encoded = encodeURIComponent(secret);
    const lower = encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
    forms.add(secret).add(JSON.stringify(secret).slice(1, -1)).add(encoded).add(lower);
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One character of a secret as a URL or a query may carry it: as written, or percent-encoded (each byte of
 * its UTF-8, its hex in either case); a `+` also as the space a query string decodes it to.
 */
function urlChar(char: string): string {
  const bytes = [...new TextEncoder().encode(char)]
    .map(
      (byte) =>
        `%${[...byte.toString(16).padStart(2, '0')].map((digit) => `[${digit}${digit.toUpperCase()}]`).join('')}`,
    )
    .join('');
  return `(?:${char === '+' ? '[+ ]' : escaped(char)}|${bytes})`;
}

/**
 * The pattern of `secrets` in every form they travel in: JSON-escaped, and as written with any of their
 * characters percent-encoded, in upper-, lower- or mixed-case hex (a `+` also as a space); `undefined`
 * when there is none to search for.
 */
export function secretPattern(secrets: Iterable<string | undefined>): RegExp | undefined {
  const alternatives = searched(secrets).flatMap((secret) => [
    escaped(JSON.stringify(secret).slice(1, -1)),
    [...secret].map(urlChar).join(''),
  ]);
  return alternatives.length === 0 ? undefined : new RegExp(alternatives.join('|'), 'g');
}

/**
 * A redactor of `secrets`: each is masked in every form of `secretPattern`, wherever it stands in the text.
 * The longest secret is tried first, so a token that holds another is masked whole.
 */
export function redactorOf(secrets: Iterable<string | undefined>): Redactor {
  const pattern = secretPattern(secrets);
  if (pattern === undefined) return NO_REDACTION;
  return (text) => text.replace(pattern, REDACTED);
}

/**
 * `text` (already redacted) without the start of a credential it may end in: a text cut at a bound, or
 * captured only up to one, can end inside a credential the redactor never saw whole. The longest end of
 * `text` that begins one of `forms` goes.
 */
export function withoutSecretStart(text: string, forms: readonly string[]): string {
  let cut = 0;
  for (const form of forms) {
    for (let length = Math.min(form.length - 1, text.length); length > cut; length--) {
      if (text.endsWith(form.slice(0, length))) {
        cut = length;
        break;
      }
    }
  }
  return cut === 0 ? text : text.slice(0, -cut);
}

/**
 * A copy of a JSON value (an error's `data`, a turn's `metadata`) with every string and key passed through
 * `redact`; `depth` bounds the walk (deeper values become `[redacted]`, as a hostile nesting must not
 * cost a stack).
 */
export function redactJson(value: unknown, redact: Redactor, depth = 32): unknown {
  if (redact === NO_REDACTION) return value;
  if (typeof value === 'string') return redact(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth <= 0) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redact, depth - 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[redact(key)] = redactJson(item, redact, depth - 1);
  return copy;
}
