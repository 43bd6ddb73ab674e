import type * as z from 'zod/mini';
import { checkAgainst, type PlainIssue } from '../../contract/issues.js';
import { ApiFailure } from './respond.js';

/**
 * Largest request body the mock reads: 8 MiB. Beyond it: 413 `api_v1_payload_too_large`, the mock's own code.
 *
 * The largest legal body, written the longest way JSON allows without padding (every character of every
 * string as a `\uXXXX` escape: 6 bytes per UTF-16 unit, 12 for a character outside the BMP), is a send's:
 * `content` 64,000 characters x 12 = 768,000 bytes, `metadata` 2048 serialized bytes at most x 6 = 12,288,
 * 20 attachment ids of up to 16 digits, names and punctuation under 1,000: about 781 KB (a skill's body,
 * `instructions` 12,000 x 12 plus `name` and `description`, stays under 160 KB; `icon` has no stated limit).
 * The cap holds ten times that, so that a `content` or `instructions` far over its limit, however escaped,
 * is read and answered with the code the spec names for it (422 `api_v1_content_too_long`, 422
 * `prompt_text_too_long`), not with 413.
 */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Reads a JSON body: 413 `api_v1_payload_too_large` past `MAX_BODY_BYTES` (counted while reading, since
 * `Content-Length` may be absent or wrong), 400 `api_v1_invalid_json` for bytes that are not UTF-8 JSON.
 * An empty body reads as `{}`, so a missing field is reported by name (422) rather than as bad JSON.
 */
export async function readJson(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get('content-length'));
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readCapped(request, MAX_BODY_BYTES);
  if (!bytes) throw tooLarge();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalidJson('The body is not valid UTF-8.');
  }
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw invalidJson('The body is not valid JSON.');
  }
}

/** `value` checked by `schema`, or 422 `api_v1_validation_error` with `data: [{ field, message, limit? }]`. */
export function validate<T>(schema: z.ZodMiniType<T>, value: unknown): T {
  const checked = checkAgainst(schema, value);
  if (checked.ok) return checked.value;
  throw validationFailure(checked.issues);
}

/** 422 `api_v1_validation_error` carrying `issues`. */
export function validationFailure(issues: PlainIssue[]): ApiFailure {
  return new ApiFailure(422, 'api_v1_validation_error', 'The given data was invalid.', issues);
}

/**
 * The bytes of `request`'s body, or undefined once they pass `max` (counted while reading, the rest
 * cancelled unread, so a huge body is never held).
 */
export async function readCapped(request: Request, max: number): Promise<Uint8Array | undefined> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function tooLarge(): ApiFailure {
  return new ApiFailure(413, 'api_v1_payload_too_large', `The body exceeds ${MAX_BODY_BYTES} bytes.`);
}

function invalidJson(message: string): ApiFailure {
  return new ApiFailure(400, 'api_v1_invalid_json', message);
}
