import {
  type Context,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type Tracer,
  trace,
} from '@opentelemetry/api';

/** What `createChatRoute` answers: a turn sent, a turn's stream resumed, a turn stopped. */
export type RouteAction = 'send' | 'resume' | 'stop';

/** The instrumentation scope's name: the package's (as the client's spans). */
const SCOPE = 'convo-sdk';

/** Reads a request's `traceparent`, `tracestate` and `baggage` for the registered propagator. */
const HEADERS: TextMapGetter<Headers> = {
  keys: (headers) => [...headers.keys()],
  get: (headers, key) => headers.get(key) ?? undefined,
};

/** The registered tracer, or none when no tracer provider is registered (the API's proxy has no delegate). */
function tracer(): Tracer | undefined {
  const provider = trace.getTracerProvider() as ReturnType<typeof trace.getTracerProvider> & {
    getDelegateTracer?: (name: string) => Tracer | undefined;
  };
  return typeof provider.getDelegateTracer === 'function'
    ? provider.getDelegateTracer(SCOPE)
    : provider.getTracer(SCOPE);
}

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
  let response: Response;
  try {
    response = await context.with(active, respond);
  } catch (error) {
    failed(span, error instanceof Error ? error.name : 'Error');
    span.end();
    throw error;
  }
  span.setAttribute('http.response.status_code', response.status);
  if (response.status >= 500) failed(span, String(response.status));
  if (!response.body) {
    span.end();
    return response;
  }
  return new Response(within(response.body, active, span), response);
}

function failed(span: Span, type: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

/**
 * `body`, each read inside `active`, pulled only as the server reads it; `span` ends with the body: read to
 * its end, failed, or cancelled (each happens once, and ends the reading).
 */
function within(body: ReadableStream<Uint8Array>, active: Context, span: Span): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await context.with(active, () => reader.read());
          if (next.done) {
            span.end();
            controller.close();
          } else controller.enqueue(next.value);
        } catch (error) {
          failed(span, error instanceof Error ? error.name : 'Error');
          span.end();
          controller.error(error);
        }
      },
      async cancel(reason) {
        span.setAttribute('convo.route.cancelled', true);
        span.end();
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
