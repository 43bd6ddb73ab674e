import { context, SpanKind, trace } from '@opentelemetry/api';
import { failed, inside, tracer, within } from './stream-span.js';

/** What a `ConvoChatTransport` call does: send a turn (or an approval's answer), or read the last one again. */
export type TransportCall = 'send' | 'resume';

/** The length of a chat id (a UUID): a longer one, which the call refuses, is left out of the span. */
const CHAT_ID_LENGTH = 36;

/**
 * Runs the transport call `run` (`options` are the call's) inside an INTERNAL span
 * `chat.transport.<call>`, whose context is active while the call sends (an approval's
 * `actions.approveTool`) and while its UI-message stream is read (the turn's `turns.stream`), so that the
 * client's spans are its children. INTERNAL, not CLIENT: the span makes no request itself; the client's
 * spans under it are the CLIENT spans of each request, and a CLIENT span over CLIENT spans would count each
 * request twice where a backend derives calls between services from them. The span ends when the stream
 * was read to its end, failed (a thrown error, or an `error` chunk), or was cancelled; a resume that finds
 * no turn ends it at once. Its attributes are bounded: the chat id (left out when longer than a UUID), the
 * trigger (a closed set), the error's type. With no tracer provider registered, `run` runs as it is, and
 * nothing is made.
 */
export async function transportSpan<S extends ReadableStream<unknown> | null>(
  call: TransportCall,
  options: { chatId: string; trigger?: unknown },
  run: () => Promise<S>,
): Promise<S> {
  const traces = tracer();
  if (!traces) return run();
  const { chatId } = options;
  const trigger = call === 'resume' ? 'resume-stream' : options.trigger;
  // The AI SDK's triggers of a call (`resume-stream` is `reconnectToStream`'s); anything else is `_OTHER`.
  const known = ['submit-message', 'regenerate-message', 'resume-stream'].includes(trigger as string);
  const parent = context.active();
  const span = traces.startSpan(
    `chat.transport.${call}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        ...(String(chatId).length <= CHAT_ID_LENGTH ? { 'gen_ai.conversation.id': chatId } : {}),
        'convo.transport.trigger': known ? (trigger as string) : '_OTHER',
      },
    },
    parent,
  );
  const active = trace.setSpan(parent, span);
  const stream = await inside(span, active, run);
  if (!stream) {
    span.end();
    return stream;
  }
  return within(stream, active, span, 'convo.transport.cancelled', (chunk) => {
    const { type, errorText } = chunk as { type?: unknown; errorText?: unknown };
    // An `error` chunk's text is `code: message`: its code, when it has the shape of one, is the type.
    if (type === 'error')
      failed(span, /^([a-z][a-z0-9_.]{0,63}): /i.exec(String(errorText))?.[1] ?? '_OTHER');
  }) as S;
}
