/** Abort semantics of fetch for the mock's responses, for fetch injection (`createMock().fetch`). */

/** Settles with `response`, or rejects with the signal's reason if it aborts first (like fetch). */
export function abortable(response: Promise<Response>, signal: AbortSignal): Promise<Response> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    response.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * `response` with a body that behaves like fetch's after the headers: an abort errors it with the signal's
 * reason and cancels the source, so the mock sees the client go away (a stream's turn goes on regardless).
 */
export function abortableBody(response: Response, signal: AbortSignal): Response {
  const source = response.body;
  if (!source) return response;
  const reader = source.getReader();
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        stop = () => {
          controller.error(signal.reason);
          reader.cancel(signal.reason).catch(() => {});
        };
        if (signal.aborted) stop();
        else signal.addEventListener('abort', stop, { once: true });
      },
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (signal.aborted) return;
          if (done) {
            signal.removeEventListener('abort', stop);
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          signal.removeEventListener('abort', stop);
          if (!signal.aborted) controller.error(error);
        }
      },
      cancel(reason) {
        signal.removeEventListener('abort', stop);
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  const { status, statusText, headers } = response;
  return new Response(body, { status, statusText, headers });
}
