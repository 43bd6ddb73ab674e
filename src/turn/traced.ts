import { LIMITS } from '../contract/limits.js';
import type { AnswerSender } from '../interactions/interaction.js';
import type { StreamEvent } from '../stream/events.js';
import type { TelemetryGate } from '../telemetry/gate.js';
import type { TurnTrace } from '../telemetry/otel.js';

/** A recorded streamed turn: its span once its reading began, and the stream whose loss ends the span. */
export interface TracedTurn {
  trace: TurnTrace | undefined;
  owner: object | undefined;
}

/**
 * `source` inside the streamed turn's span: made at the first read (a child of the span active then), ended
 * when the reading ends, however it ends. A turn whose path or body fails its check is sent nowhere and makes
 * no span: `source` fails its first read with the error.
 */
export async function* tracedEvents<I>(
  gate: TelemetryGate,
  traced: TracedTurn,
  call: { chatId: string; request: () => { path: string; body: object } },
  source: AsyncGenerator<StreamEvent<I>[]>,
): AsyncGenerator<StreamEvent<I>[]> {
  const telemetry = await gate.load().catch(() => undefined);
  let request: { path: string; body: object } | undefined;
  try {
    request = call.request();
  } catch {
    // The source's own first read throws it again, where the caller expects it.
  }
  if (!telemetry || !request) return yield* source;
  const info = { name: 'turns.stream', method: 'POST', chatId: call.chatId, ...request };
  traced.trace = telemetry.turn(info, traced.owner);
  yield* traced.trace.observe(source);
}

/** `answer` recorded on the turn's span (as an event, its CLIENT span a child), once the span exists. */
export function tracedAnswer(answer: AnswerSender, traced: TracedTurn): AnswerSender {
  return (chatId, kind, body, options, until) => {
    const send = () => answer(chatId, kind, body, options, until);
    const trace = traced.trace;
    return trace ? trace.answer(kind, body, until, LIMITS.interactionLifetimeMs, send) : send();
  };
}
