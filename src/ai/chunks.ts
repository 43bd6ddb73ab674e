import {
  ApiError,
  type Interaction,
  isTerminal,
  type Step,
  type ToolApproval,
  type ToolCall,
  type Turn,
  type TurnFailure,
  type TurnStreamEvent,
} from '../index.js';
import type { ConvoChunk, ConvoUIMessage, InteractionData } from './parts.js';
import { TextWriter } from './text.js';

/** How a segment of a turn is mapped: which message it writes to, and what that message already shows. */
export interface SegmentContext {
  /** The UI message's id. */
  messageId: string;
  chatId: string;
  idempotencyKey: string;
  /** The text the message already shows (`messageText`): the turn's text is written as its difference. */
  shown: string;
  /** The tool call ids the message already has a part for. */
  tools: ReadonlySet<string>;
  /**
   * A continuation over a replay from the start: events are skipped until this interaction has passed
   * (terminal events are never skipped).
   */
  after?: string | undefined;
  /** Tool decisions just sent, by tool call id: a rejected tool is marked denied at once. */
  decisions?: ReadonlyMap<string, boolean> | undefined;
  /**
   * The parts of the message this segment continues: sent after `start` as a transient
   * `data-convo-restate` part, which a page reading the segment again (a resume, after a reload)
   * unpacks, and a page that still shows the message passes by.
   */
  restate?: ConvoUIMessage['parts'] | undefined;
}

/**
 * How a segment ended: at a tool approval (the turn waits on the service for it), with the turn's terminal
 * event (`end`), or `broken` without one (the read failed): reading the turn again by its key may finish it.
 */
export type SegmentEnd = ToolApproval | 'end' | 'broken';

/**
 * Maps a turn's events to UI message chunks until the turn ends or asks for a tool approval (the AI SDK
 * expects the response to end there; the answer comes with the next request). Text is written by
 * `TextWriter` as the difference it makes to what the message shows: a text that does not extend it (a
 * failover's `replace`) starts a `data-convo-replace` part and a new text part with the whole text; the
 * terminal event's content is the authority. Never throws: a failure is an `error` chunk.
 */
export async function* turnChunks(
  events: AsyncIterator<TurnStreamEvent>,
  context: SegmentContext,
): AsyncGenerator<ConvoChunk, SegmentEnd> {
  const text = new TextWriter(context.shown, partIds(context.messageId));
  const tools = new Set(context.tools);
  /** Approved tools still without an output: given one when the turn ends, so no approval stays open. */
  const approved = new Set<string>();
  let waiting: InteractionData | undefined;
  let skipping = context.after !== undefined;

  yield {
    type: 'start',
    messageId: context.messageId,
    messageMetadata: {
      convo: {
        chatId: context.chatId,
        idempotencyKey: context.idempotencyKey,
      },
    },
  };
  if (context.restate?.length)
    yield { type: 'data-convo-restate', data: { parts: context.restate }, transient: true };
  for (const [toolCallId, ok] of context.decisions ?? []) {
    if (ok) approved.add(toolCallId);
    else yield { type: 'tool-output-denied', toolCallId };
  }
  try {
    for (;;) {
      const next = await events.next();
      if (next.done) break;
      const event = next.value;
      if (skipping && !isTerminal(event)) {
        if (event.type === 'action_required' && event.interaction.action_id === context.after)
          skipping = false;
        continue;
      }
      if (waiting && event.type !== 'ping' && event.type !== 'resumed') {
        // The turn went on: the interaction was answered (or expired on the service).
        waiting = { ...waiting, status: 'resolved' };
        yield { type: 'data-convo-interaction', id: waiting.actionId, data: waiting };
        waiting = undefined;
      }
      switch (event.type) {
        case 'start':
          yield { type: 'message-metadata', messageMetadata: { convo: { turnId: event.message_id } } };
          break;
        case 'delta':
          for (const chunk of text.delta(event)) yield chunk;
          break;
        case 'step':
          for (const step of event.steps) yield* stepChunks(step, tools, approved);
          break;
        case 'action_required': {
          const interaction = event.interaction;
          yield* text.close();
          if (interaction.kind === 'tool_approval') {
            yield* approvalChunks(interaction, tools);
            yield { type: 'finish', finishReason: 'tool-calls' };
            return interaction;
          }
          waiting = interactionData(interaction);
          yield { type: 'data-convo-interaction', id: waiting.actionId, data: waiting };
          break;
        }
        case 'completed':
        case 'cancelled':
          yield* text.settle(event.turn.content);
          yield* text.close();
          yield* settle(approved, event.turn);
          yield {
            type: 'finish',
            finishReason: event.type === 'completed' ? 'stop' : 'other',
            messageMetadata: {
              convo: { turnId: event.turn.id, status: event.type, usage: event.turn.usage },
            },
          };
          return 'end';
        case 'error':
          yield* text.close();
          yield* failed(event.error);
          return 'end';
        // A keep-alive, a recovery (its text was reconciled) and an event off the contract or unknown to
        // this version change nothing a UI message shows.
        case 'ping':
        case 'resumed':
        case 'off_schema':
        case 'unknown':
          break;
        default:
          // Every event is mapped: one added to `StreamEvent` does not compile until it is.
          return event satisfies never;
      }
    }
  } catch (error) {
    yield* text.close();
    yield* failed(
      error instanceof ApiError
        ? { code: error.code, message: error.message, retryable: retryable(error) }
        : { code: errorName(error), message: errorMessage(error), retryable: false },
    );
    return 'broken';
  }
  yield* text.close();
  yield { type: 'finish' };
  return 'broken';
}

/** Ids of a message's parts, unique across the segments that write it. */
function partIds(messageId: string): () => string {
  const segment = Math.random().toString(36).slice(2, 10);
  let n = 0;
  return () => `${messageId}-${segment}-${n++}`;
}

/** A tool part's title: the tool and its server. */
export const toolTitle = (call: ToolCall): string => `${call.name} (${call.server})`;

/** A tool part's output: the status (and detail) of the step that ran it. */
export const toolOutput = (step: Step): { status: string; detail?: unknown } =>
  step.detail === undefined ? { status: step.status } : { status: step.status, detail: step.detail };

/** A tool call as the AI SDK's dynamic tool part, titled with its server. */
function toolInput(call: ToolCall) {
  return {
    type: 'tool-input-available',
    toolCallId: call.tool_use_id,
    toolName: call.name,
    input: call.input,
    dynamic: true,
    title: toolTitle(call),
  } as const;
}

/** A step as a data part updated in place by its key, and each tool it ran as a tool part with its output. */
function* stepChunks(step: Step, tools: Set<string>, approved: Set<string>): Generator<ConvoChunk> {
  yield { type: 'data-convo-step', id: step.key, data: step };
  for (const call of step.tool_calls ?? []) {
    if (!tools.has(call.tool_use_id)) {
      tools.add(call.tool_use_id);
      yield toolInput(call);
    }
    approved.delete(call.tool_use_id);
    yield {
      type: 'tool-output-available',
      toolCallId: call.tool_use_id,
      output: toolOutput(step),
      dynamic: true,
    };
  }
}

/** A tool approval: a new step with one tool part per tool, each asking for approval. */
function* approvalChunks(interaction: ToolApproval, tools: Set<string>): Generator<ConvoChunk> {
  yield { type: 'start-step' };
  for (const call of interaction.tools) {
    tools.add(call.tool_use_id);
    yield {
      ...toolInput(call),
      providerMetadata: { convo: { actionId: interaction.action_id, server: call.server } },
    };
    yield {
      type: 'tool-approval-request',
      approvalId: `${interaction.action_id}:${call.tool_use_id}`,
      toolCallId: call.tool_use_id,
    };
  }
  yield { type: 'finish-step' };
}

/** Approved tools whose step never came get the turn's end as output, so that no approval stays open. */
function* settle(approved: Set<string>, turn: Turn): Generator<ConvoChunk> {
  for (const toolCallId of approved)
    yield { type: 'tool-output-available', toolCallId, output: { status: turn.status }, dynamic: true };
  approved.clear();
}

/** A failure: its code in the message metadata, then the `error` chunk (`code: message`). */
function* failed(error: Pick<TurnFailure, 'code' | 'message' | 'retryable'>): Generator<ConvoChunk> {
  const { code, message, retryable } = error;
  yield { type: 'message-metadata', messageMetadata: { convo: { error: { code, message, retryable } } } };
  yield { type: 'error', errorText: `${code}: ${message}` };
}

/** An interaction other than a tool approval, as the data of its part. */
function interactionData(interaction: Exclude<Interaction, ToolApproval>): InteractionData {
  const common = {
    actionId: interaction.action_id,
    chatId: interaction.chatId,
    expiresAt: interaction.expiresAt,
    status: 'pending' as const,
  };
  switch (interaction.kind) {
    case 'plan_approval':
      return { ...common, kind: 'plan_approval', payload: interaction.payload };
    case 'elicitation':
      return { ...common, kind: 'elicitation', payload: interaction.payload };
    case 'auth_required':
      return { ...common, kind: 'auth_required', resolution: interaction.resolution ?? null };
    case 'unknown':
      return { ...common, kind: 'unknown', rawKind: interaction.rawKind };
  }
}

/** Statuses a gateway or the service answers for a request that may be sent again (4.4, 7). */
const RETRYABLE_STATUSES = new Set([408, 502, 503, 504]);

/**
 * Whether sending the request again may succeed: what the service's `retry_action` says, else a bare
 * timeout or gateway status (`check_status` never: the request may have been done).
 */
function retryable(error: ApiError): boolean {
  const action = error.errorDetails?.retry_action;
  if (action !== undefined) return action === 'retry';
  return RETRYABLE_STATUSES.has(error.status);
}

const errorName = (error: unknown) => (error instanceof Error ? error.name : 'Error');
const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
