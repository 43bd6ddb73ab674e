import { NO_REDACTION, REDACTED, redactJson, redactorOf, secretForms } from '../contract/redact.js';

/** The most characters of one printed field (a `got`, an `expected`, a reason). */
export const MAX_PRINTED = 1_000;

/** Makes a text from the server safe to print: no control character, no credential, bounded. */
export type Sanitizer = (text: string) => string;

/**
 * An escape sequence (CSI, OSC, or a lone ESC with its next character), then any other C0 or C1 control
 * character, DEL, or a bidirectional override: what could move the cursor, recolour or forge a line.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it removes.
const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b]*(?:\x07|\x1b\\)?|.)?/gs;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it removes.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` without escape sequences or control characters (newlines included: one field, one line). */
export function stripControls(text: string): string {
  return text.replace(ESCAPES, '').replace(CONTROLS, '');
}

/** `text` cut to `MAX_PRINTED` characters, saying how many were left out. */
function bound(text: string): string {
  if (text.length <= MAX_PRINTED) return text;
  return `${text.slice(0, MAX_PRINTED)}... (${text.length - MAX_PRINTED} more characters)`;
}

/**
 * What the server's text becomes as it enters the run (the wire applies it to every body, event, header and
 * error it reads): unchanged unless it holds a credential in any form `redactorOf` knows, once control
 * characters are stripped (so a credential split by one is still found); then stripped and masked. The
 * kit's own words never pass through it, so "another" stays whole whatever the credentials are.
 */
export function serverTextOf(secrets: Iterable<string | undefined>): Sanitizer {
  const redact = redactorOf(secrets);
  if (redact === NO_REDACTION) return NO_REDACTION;
  return (text) => {
    const stripped = stripControls(text);
    const masked = redact(stripped);
    return masked === stripped ? text : masked;
  };
}

/** Characters that continue a word: a credential glued to them in the kit's text is another word. */
const WORD = 'A-Za-z0-9_';

/**
 * The sanitizer of the printed report of a run given `secrets`: strips control characters, masks each
 * credential where it stands as a word of its own (the server's text was masked whole on the wire: this is
 * the last net, and it leaves the kit's words, "another credential" with a credential `other`, as they
 * are), then bounds the length (so no cut can leave part of a credential).
 */
export function sanitizerOf(secrets: Iterable<string | undefined>): Sanitizer {
  const forms = secretForms(secrets).map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const words =
    forms.length === 0 ? undefined : new RegExp(`(?<![${WORD}])(?:${forms.join('|')})(?![${WORD}])`, 'g');
  return (text) => {
    const stripped = stripControls(text);
    return bound(words ? stripped.replace(words, REDACTED) : stripped);
  };
}

/** A copy of `value` (a result, a whole report) with every string in it passed through `sanitize`. */
export function sanitizeJson<T>(value: T, sanitize: Sanitizer): T {
  return redactJson(value, sanitize) as T;
}
