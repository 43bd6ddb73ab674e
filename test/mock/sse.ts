import { type EventSourceMessage, EventSourceParserStream } from 'eventsource-parser/stream';
import { EVENT_NAMES, EVENT_SCHEMAS, type EventName } from '../../src/contract/events.js';
import type { ConvoMock } from '../../src/mock/index.js';
import type { SendInit } from './helpers.js';

/** A parsed event: its name and its JSON payload, checked by the contract schema of that event. */
export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Reads the events of an SSE body one at a time, with eventsource-parser (what the SDK uses). */
export class EventReader {
  readonly #reader: ReadableStreamDefaultReader<EventSourceMessage>;

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body
      .pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>)
      .pipeThrough(new EventSourceParserStream())
      .getReader();
  }

  /** The next raw event (name and data text), or undefined at the end of the body. */
  async nextRaw(): Promise<{ event: string; data: string } | undefined> {
    const { done, value } = await this.#reader.read();
    if (done) return undefined;
    return { event: value.event ?? 'message', data: value.data };
  }

  /** The next event, its data parsed and checked by `EVENT_SCHEMAS`; undefined at the end of the body. */
  async next(): Promise<SseEvent | undefined> {
    const raw = await this.nextRaw();
    if (!raw) return undefined;
    const data = JSON.parse(raw.data) as Record<string, unknown>;
    if ((EVENT_NAMES as readonly string[]).includes(raw.event)) {
      EVENT_SCHEMAS[raw.event as EventName].parse(data);
    }
    return { event: raw.event, data };
  }

  /** Every remaining event, until the body ends. */
  async rest(): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (let event = await this.next(); event; event = await this.next()) events.push(event);
    return events;
  }

  /** Events until (and including) the first one named `name`. */
  async until(name: string): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (let event = await this.next(); event; event = await this.next()) {
      events.push(event);
      if (event.event === name) return events;
    }
    throw new Error(`the stream ended before ${name}: ${JSON.stringify(events.map((e) => e.event))}`);
  }

  /** Cancels the body: the client goes away. */
  cancel(): Promise<void> {
    return this.#reader.cancel();
  }
}

/** A streaming send (4.4) of `body` to `chatId`, answered as a raw Response. */
export function streamRequest(mock: ConvoMock, chatId: string, body: unknown, init: SendInit = {}): Request {
  const key = init.key === undefined ? crypto.randomUUID() : init.key;
  const headers = new Headers({
    authorization: `Bearer ${init.token ?? 'mock-token'}`,
    'content-type': 'application/json',
    accept: 'text/event-stream',
    ...init.headers,
  });
  if (key !== null) headers.set('idempotency-key', key);
  return new Request(`${mock.url}/api/v1/chats/${chatId}/messages/stream`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
}

/** Sends a streaming turn and returns a reader of its events (fails unless the answer is an SSE 200). */
export async function stream(
  mock: ConvoMock,
  chatId: string,
  body: unknown,
  init: SendInit = {},
): Promise<EventReader> {
  const response = await mock.handle(streamRequest(mock, chatId, body, init));
  if (response.status !== 200 || !response.body) {
    throw new Error(`expected a stream, got ${response.status} ${await response.text()}`);
  }
  return new EventReader(response.body);
}

/** Sends a streaming turn and reads all of its events. */
export async function streamAll(
  mock: ConvoMock,
  chatId: string,
  body: unknown,
  init: SendInit = {},
): Promise<SseEvent[]> {
  return (await stream(mock, chatId, body, init)).rest();
}

/** The names of `events`, in order. */
export function names(events: readonly SseEvent[]): string[] {
  return events.map((event) => event.event);
}

/** The answer a client folds from the deltas (with `replace` discarding what came before). */
export function folded(events: readonly SseEvent[]): string {
  let text = '';
  for (const { event, data } of events) {
    if (event !== 'message.delta') continue;
    text = data.replace ? String(data.text) : text + String(data.text);
  }
  return text;
}

/** The `action_id` of the last `message.action_required` of `events`. */
export function actionIdOf(events: readonly SseEvent[]): string {
  const required = events.findLast((event) => event.event === 'message.action_required');
  if (!required) throw new Error(`no message.action_required in ${JSON.stringify(names(events))}`);
  return String(required.data.action_id);
}
