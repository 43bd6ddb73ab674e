import { context, propagation, SpanKind, type TextMapGetter, trace } from '@opentelemetry/api';
import { failed, inside, tracer, within } from './stream-span.js';

/** What `createChatRoute` answers: a turn sent, a turn's stream resumed, a turn stopped. */
export type RouteAction = 'send' | 'resume' | 'stop';

/** Reads a request's `traceparent`, `tracestate` and `baggage` for the registered propagator. */
const HEADERS: TextMapGetter<Headers> = {
  keys: (headers) => [...headers.keys()],
  get: (headers, key) => headers.get(key) ?? undefined,
};

/**
 * Answers `request` with `respond` inside a SERVER span `chat.<action>` that continues the page's trace
 * (the context its headers carry), so that the client's spans of the turn are its children. A streamed
 * answer's span ends when its body was read to the end or cancelled; the body is read inside the span's
 * context, where the turn's stream is first read. With no tracer provider registered, `respond` runs as it
 * is, and nothing is made.
 */
export async function serverSpan(
  action: RouteAction,
  request: Request,
  respond: () => Promise<Response>,
): Promise<Response> {
  const traces = tracer();
  if (!traces) return respond();
  const parent = propagation.extract(context.active(), request.headers, HEADERS);
  const url = new URL(request.url);
  const span = traces.startSpan(
    `chat.${action}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': request.method,
        'url.path': url.pathname,
        'url.scheme': url.protocol.slice(0, -1),
        'convo.route.action': action,
      },
    },
    parent,
  );
  const active = trace.setSpan(parent, span);
  const response = await inside(span, active, respond);
  span.setAttribute('http.response.status_code', response.status);
  if (response.status >= 500) failed(span, String(response.status));
  if (!response.body) {
    span.end();
    return response;
  }
  return new Response(within(response.body, active, span, 'convo.route.cancelled'), response);
}
