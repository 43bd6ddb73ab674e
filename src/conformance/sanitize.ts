import { redactJson, redactorOf } from '../contract/redact.js';

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
 * The sanitizer of a run given `secrets`: strips control characters first (so a credential split by one is
 * still found), then masks every credential (`redactorOf`), then bounds the length (so no cut can leave
 * part of a credential).
 */
export function sanitizerOf(secrets: Iterable<string | undefined>): Sanitizer {
  const redact = redactorOf(secrets);
  return (text) => bound(redact(stripControls(text)));
}

/** A copy of `value` (a result, a whole report) with every string in it passed through `sanitize`. */
export function sanitizeJson<T>(value: T, sanitize: Sanitizer): T {
  return redactJson(value, sanitize) as T;
}
