import ky, { type Options as KyOptions } from 'ky';
import type { HookName } from '../errors/index.js';
import type { AfterResponseHook, BeforeRequestHook, Hooks, refused, threw } from './hooks.js';

/**
 * ky, behind one function: everything the SDK asks of it, and works around in it, is in this file. It sends
 * one HTTP exchange and gives back what came (a `Response`, unless an injected fetch hands back something
 * else) or throws; retries, timeouts, bounds and errors are the transport's. The transport imports this file
 * with its first request: a browser app loads it and ky in a chunk of their own, after the page, and a
 * process that never sends a request does not parse them (nor Node's fetch, which `Headers` loads).
 */

/** A fetch as the client's `fetch` option takes it. */
type Fetch = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/** What the client's ky instance is built of. */
export interface SendSettings {
  token: string | undefined;
  /** The client's own headers, under the SDK's `authorization` and `accept`. */
  headers: Record<string, string>;
  fetch: Fetch | undefined;
  hooks: Hooks | undefined;
}

/** One exchange: its absolute URL, method, headers and body, the signal that ends it, the request's hooks. */
interface Exchange {
  url: string;
  method: string;
  headers: Headers | Record<string, string>;
  /** JSON text, or `undefined` for none. */
  body: string | undefined;
  /** The caller's abort and the call's timeout, in one signal. */
  signal: AbortSignal;
  hooks: Hooks | undefined;
}

/**
 * How a hook's failure becomes a `HookError` (`hooks.ts`), handed in by the transport: in the Node builds
 * this file is one of its own, loaded with ky by the first request, and a copy of the error classes in it
 * would not be the client's.
 */
export interface HookFailures {
  threw: typeof threw;
  refused: typeof refused;
}

/** What the hooks of an exchange are run with: ky's `ky.retry()` prototype, and the hook failures. */
interface HookContext extends HookFailures {
  retryMarker: object;
}

/** Sends one exchange through the client's ky instance. */
export type SendOnce = (exchange: Exchange) => Promise<unknown>;

/**
 * What the contract needs of ky, set once on the client's instance, which performs every exchange and runs
 * the `beforeRequest` and `afterResponse` hooks. Four of its defaults are the SDK's own. `retry: 0`:
 * the policy table repeats what the contract allows (the transport's retry entry), for every kind, under a
 * turn's key; ky re-sends only when an `afterResponse` hook returns `ky.retry()` (`hookRetry`, set only
 * then: a retry limit above 0 makes ky clone every `Request`). `timeout: false`: the call's `timeout` also
 * covers reading the body, which the transport reads itself to bound it (`maxResponseBytes`).
 * `throwHttpErrors: false`: an error's body is the contract's envelope, read by the transport within
 * `maxResponseBytes`. `redirect: 'manual'`: a redirect is a `RedirectError`, never followed.
 */
const KY_OPTIONS = {
  retry: 0,
  timeout: false,
  throwHttpErrors: false,
  redirect: 'manual',
} as const satisfies KyOptions;

/** Builds the client's ky instance (`KY_OPTIONS`, the client's headers and hooks) and its `SendOnce`. */
export function sendOnce(settings: SendSettings, failures: HookFailures): SendOnce {
  const context: HookContext = { ...failures, retryMarker: Object.getPrototypeOf(ky.retry()) as object };
  const headers = new Headers(settings.headers);
  headers.set('authorization', `Bearer ${settings.token}`);
  headers.set('accept', 'application/json');
  const own = kyHooks(settings.hooks, context);
  /** ky's retry where an `afterResponse` hook may return `ky.retry()`: that re-send, once, and no other. */
  const hookRetry = { limit: 1, shouldRetry: () => false };
  const fetch = settings.fetch;
  const instance = ky.create({
    ...KY_OPTIONS,
    // As a plain object (its names lower-cased by `Headers`): ky merges two plain objects by spreading them,
    // where a `Headers` on either side costs it two more `Headers` a call.
    headers: Object.fromEntries(headers),
    // Only when there are some: ky merges the defaults into each call's options, hooks included.
    ...(own && { hooks: own, retry: own.afterResponse.length ? hookRetry : 0 }),
    // Called as a plain function (ky calls it as a method), so that a detached `window.fetch` works.
    ...(fetch ? { fetch: (input: Request | URL | string, init?: RequestInit) => fetch(input, init) } : {}),
  });
  // Where no hook runs, what ky gives back is returned as it is (no frame of this file waits on it); where
  // one does, it is raced against the signal, which ky does not watch while a hook runs.
  return ({ url, method, headers, body, signal, hooks: callHooks }) => {
    const init: KyOptions = { method, headers };
    const hooks = kyHooks(callHooks, context);
    // Stryker disable next-line ConditionalExpression: a call without hooks raced against its signal, its body also in ky's Request, is the same exchange at a cost
    const hooked = own !== undefined || hooks !== undefined;
    // Where no hook sees ky's Request, `unpacked` sends `body` itself: ky's copy would only be wrapped in a
    // stream nobody reads.
    // Stryker disable next-line ConditionalExpression,LogicalOperator: the body in ky's Request where no hook sees it (or an undefined one) changes only the cost
    if (body !== undefined && hooked) init.body = body;
    if (hooks) {
      init.hooks = hooks;
      // Stryker disable next-line ConditionalExpression: ky's retry set for a beforeRequest alone re-sends nothing either (only a cost: ky clones the Request)
      if (hooks.afterResponse.length) init.retry = hookRetry;
    }
    // A `beforeRequest` hook may hand ky another Request, body included: that one goes out as it is.
    if (!own?.beforeRequest.length && !hooks?.beforeRequest.length)
      init.fetch = unpacked(fetch, body, signal);
    else init.signal = signal;
    return hooked ? withinSignal(instance(url, init), signal) : instance(url, init);
  };
}

/**
 * ky's `fetch` for a call whose Request no hook replaces: it sends the Request ky built (its URL, method,
 * headers as the hooks left them, redirect mode) as a URL and init, with `body` as text and the call's
 * `signal`. Handed the Request itself, fetch would copy its body through a stream, and ky would then cancel
 * the drained stream, which throws an error it catches; given to ky, the signal would be combined with ky's
 * own (`AbortSignal.any`, weakly linked by undici). Their cost is in BENCHMARKS.md ("The shared harness").
 * `fetch` is the client's, else the global one at call time (msw replaces it).
 */
function unpacked(fetch: Fetch | undefined, body: string | undefined, signal: AbortSignal) {
  return (input: Request | URL | string, extra?: RequestInit) => {
    const send = fetch ?? globalThis.fetch;
    const request = input as Request; // ky hands its fetch the Request it built, always
    return send(request.url, {
      ...extra,
      method: request.method,
      headers: request.headers,
      body: body ?? null,
      signal,
      redirect: request.redirect,
    });
  };
}

/** ky's hooks as the SDK hands them over: each guarded (`kyHooks`). */
interface KyHooks {
  beforeRequest: BeforeRequestHook[];
  afterResponse: AfterResponseHook[];
}

/**
 * The `beforeRequest` and `afterResponse` hooks of `hooks` as ky runs them, or `undefined` when there are
 * none: what a hook throws, or returns but may not (anything but a `Request`, a `Response`, nothing, or
 * for `afterResponse` ky's own `ky.retry()`, whose prototype is `retryMarker`), becomes a `HookError`.
 */
function kyHooks(hooks: Hooks | undefined, context: HookContext): KyHooks | undefined {
  const before = hooks?.beforeRequest ?? [];
  const after = hooks?.afterResponse ?? [];
  // Stryker disable next-line ConditionalExpression: two empty lists of hooks run nothing (only a cost)
  if (!before.length && !after.length) return undefined;
  return {
    beforeRequest: before.map(
      (hook) => (state) =>
        guarded(
          'beforeRequest',
          () => hook(state),
          'a Request, a Response',
          (value) => value instanceof Request,
          context,
        ),
    ),
    afterResponse: after.map(
      (hook) => (state) =>
        guarded(
          'afterResponse',
          () => hook(state),
          'a Response',
          (value) => Object.getPrototypeOf(Object(value)) === context.retryMarker,
          context,
        ),
    ),
  };
}

/** Runs an async hook: a throw, or a returned value neither a `Response`, nothing nor `also`, is a `HookError`. */
async function guarded<T>(
  hook: HookName,
  run: () => T | Promise<T>,
  allowed: string,
  also: (value: unknown) => boolean,
  { threw, refused }: HookFailures,
): Promise<T> {
  let result: T;
  try {
    result = await run();
  } catch (error) {
    throw threw(hook, error);
  }
  if (result === undefined || result instanceof Response || also(result)) return result;
  throw refused(hook, result, allowed);
}

/**
 * `work` (an exchange through ky, hooks included), or the signal's reason as soon as it aborts: ky does not
 * watch the signal while a hook runs. What `work` gives after that is dropped, a `Response`'s body cancelled.
 */
function withinSignal<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason);
      work.then(
        (late) => {
          // Stryker disable next-line ConditionalExpression: ky resolves to a Response or throws
          if (late instanceof Response) late.body?.cancel().catch(() => {});
        },
        () => {},
      );
    };
    // Not aborted yet: the transport checks the signal just before it sends.
    // The listener's options and its removal once `work` settled only free it sooner: the transport lets go
    // of the signal (`done`) before it could abort again.
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: see above
    signal.addEventListener('abort', onAbort, { once: true });
    // Stryker disable StringLiteral: see above
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
    // Stryker restore StringLiteral
  });
}
