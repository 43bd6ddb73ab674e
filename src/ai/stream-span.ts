import { type Context, context, type Span, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';

/** The instrumentation scope's name: the package's (as the client's spans). */
const SCOPE = 'convo-sdk';

/** The registered tracer, or none when no tracer provider is registered (the API's proxy has no delegate). */
export function tracer(): Tracer | undefined {
  const provider = trace.getTracerProvider() as ReturnType<typeof trace.getTracerProvider> & {
    getDelegateTracer?: (name: string) => Tracer | undefined;
  };
  return typeof provider.getDelegateTracer === 'function'
    ? provider.getDelegateTracer(SCOPE)
    : provider.getTracer(SCOPE);
}

/** Marks `span` failed with the bounded `error.type` `type`. */
export function failed(span: Span, type: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

/** A thrown value's `error.type`: its class's name, `Error` for a value that is no Error. */
const errorType = (error: unknown): string => (error instanceof Error ? error.name : 'Error');

/** `run` inside `active`; a throw marks `span` failed and ends it before it is thrown on. */
export async function inside<R>(span: Span, active: Context, run: () => Promise<R>): Promise<R> {
  try {
    return await context.with(active, run);
  } catch (error) {
    failed(span, errorType(error));
    span.end();
    throw error;
  }
}

/**
 * `stream`, each read inside `active`, pulled only as its reader reads it; `span` ends with the stream: read
 * to its end, failed, or cancelled (then marked with the attribute `cancelled`). Each happens once and ends
 * the reading. `seen` is shown each chunk before it is handed on.
 */
export function within<T>(
  stream: ReadableStream<T>,
  active: Context,
  span: Span,
  cancelled: string,
  seen?: (chunk: T) => void,
): ReadableStream<T> {
  const reader = stream.getReader();
  return new ReadableStream<T>(
    {
      async pull(controller) {
        try {
          const next = await context.with(active, () => reader.read());
          if (next.done) {
            span.end();
            controller.close();
          } else {
            seen?.(next.value);
            controller.enqueue(next.value);
          }
        } catch (error) {
          failed(span, errorType(error));
          span.end();
          controller.error(error);
        }
      },
      async cancel(reason) {
        span.setAttribute(cancelled, true);
        span.end();
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
