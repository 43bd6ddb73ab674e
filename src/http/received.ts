import type { Redactor } from '../contract/redact.js';
import { RedirectError } from '../errors/index.js';

/**
 * What an exchange gave, checked: a `Response` that is no redirect (ky never follows one, `send-once.ts`).
 * A redirect is a `RedirectError` naming its location (redacted), its body cancelled.
 */
export function received(value: unknown, redact: Redactor): Response {
  // An injected fetch (or a hook) may hand back anything.
  if (!(value instanceof Response)) throw new TypeError('the fetch resolved to something not a Response');
  if (isRedirect(value)) {
    value.body?.cancel().catch(() => {});
    throw new RedirectError(value.status, redact(value.headers.get('location') ?? ''));
  }
  return value;
}

/** A 3xx, or what a browser shows of one under `redirect: 'manual'` (an opaque redirect, status 0). */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}
