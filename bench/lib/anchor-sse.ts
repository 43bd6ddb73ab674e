// The turn of benchmark 1 in each anchor's wire format, for benchmark 9: the same deltas and the same answer
// carried whole by the last event (a field the anchor passes through), so that each reader parses as much.
import { deltaText } from './sse.ts';

/** A wire format: the whole turn, and its first and last events alone (for the time to the first event). */
export interface Wire {
  /** The start event, `count` deltas and the terminal event carrying `content`. */
  turn(count: number, content: string): Uint8Array;
  first: Uint8Array;
  last: Uint8Array;
}

const encoder = new TextEncoder();
const named = (name: string, payload: unknown) =>
  `event: ${name}\ndata: ${JSON.stringify({ type: name, ...(payload as object) })}\n\n`;

/** A wire format's events one by one: what benchmark 14's server writes to each stream. */
export interface WireEvents {
  start: string;
  delta(text: string): string;
  /** The terminal event(s), carrying the whole answer. */
  end(content: string): string;
  /** The keep-alive its servers send between events. */
  ping: string;
}

function build({ start, delta, end }: WireEvents): Wire {
  return {
    turn(count, content) {
      const parts = [start];
      for (let i = 0; i < count; i++) parts.push(delta(deltaText(i)));
      parts.push(end(content));
      return encoder.encode(parts.join(''));
    },
    first: encoder.encode(start),
    last: encoder.encode(end('')),
  };
}

/** Anthropic Messages streaming events; the answer rides on `message_delta`. */
export const anthropicEvents: WireEvents = {
  start:
    named('message_start', {
      message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], usage: {} },
    }) + named('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  delta: (text) => named('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
  end: (content) =>
    named('content_block_stop', { index: 0 }) +
    named('message_delta', {
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 5 },
      content: [{ type: 'text', text: content }],
    }) +
    named('message_stop', {}),
  ping: named('ping', {}),
};
export const anthropicWire: Wire = build(anthropicEvents);

const chunk = (fields: object) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'm', ...fields })}\n\n`;

/** OpenAI Chat Completions chunks and `[DONE]`; the answer rides on the last chunk; a comment keeps alive. */
export const openaiEvents: WireEvents = {
  start: chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }),
  delta: (content) => chunk({ choices: [{ index: 0, delta: { content }, finish_reason: null }] }),
  end: (content) =>
    `${chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], message: { content } })}data: [DONE]\n\n`,
  ping: ': ping\n\n',
};
export const openaiWire: Wire = build(openaiEvents);
