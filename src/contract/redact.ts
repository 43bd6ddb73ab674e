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

/**
 * The forms `secrets` travel in: each as written, JSON-escaped (as a body or an echoed header quotes it)
 * and percent-encoded (as a URL carries it), longest first; those under `MIN_SECRET_LENGTH` left out.
 */
export function secretForms(secrets: Iterable<string | undefined>): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === undefined || secret.length < MIN_SECRET_LENGTH) continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
    forms.add(encodeURIComponent(secret));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * A redactor of `secrets`: each is masked in every form of `secretForms`, wherever it stands in the text.
 * The longest form is tried first, so a token that holds another is masked whole.
 */
export function redactorOf(secrets: Iterable<string | undefined>): Redactor {
  const forms = secretForms(secrets);
  if (forms.length === 0) return NO_REDACTION;
  const pattern = new RegExp(forms.map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
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
