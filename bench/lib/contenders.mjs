// The readers of benchmark 11, each as the shared harness measures it, in plain JavaScript: a consumer
// `(body, onEvent) => Promise<void>` that hands every event's parsed payload to `onEvent` as it arrives. The
// anchors go through their real clients with an injected fetch answering the body, as there; the client reads
// the body through the rewrite into the contract's stream (bench/lib/spec-stream.mjs), as the harness's adapter
// makes it.

import { CHAT, completedChunks, toSpecStream } from './spec-stream.mjs';
import { splitEvents } from './splitter.mjs';

/** @typedef {(body: ReadableStream<Uint8Array>, onEvent: (data: unknown) => void) => Promise<void>} Consume */

const messages = [{ role: 'user', content: 'hi' }];

/**
 * A fetch that answers the next body given to `answer` as a `text/event-stream` response.
 * @param {Record<string, string>} headers
 */
function injected(headers) {
  /** @type {ReadableStream<Uint8Array> | null} */
  let next = null;
  return {
    /** @param {ReadableStream<Uint8Array>} body */
    answer(body) {
      next = body;
    },
    fetch: async () => {
      const body = next;
      next = null;
      return new Response(body, { status: 200, headers });
    },
  };
}

/**
 * Contender `name`'s consumer, its package imported now; `deltas`: the body sizes the client's terminal
 * events are built ahead for (the harness's adapter builds them when the consumer is made).
 * @param {string} name
 * @param {number[]} [deltas]
 * @returns {Promise<Consume>}
 */
export async function consumer(name, deltas = []) {
  if (name === 'client') {
    const { Client } = await import('convo-sdk');
    for (const n of deltas) completedChunks(n);
    const wire = injected({ 'content-type': 'text/event-stream' });
    const client = new Client({
      baseUrl: 'http://bench.invalid',
      token: 'bench',
      maxRetries: 0,
      fetch: wire.fetch,
    });
    return async (body, onEvent) => {
      wire.answer(toSpecStream(body));
      // maxResumes 0: a broken stream throws instead of being opened again (it never is on a good run).
      const stream = client.turns.stream(CHAT, { content: 'hi' }, { maxResumes: 0 });
      for await (const event of stream) onEvent(event);
      await stream.finalTurn();
    };
  }
  if (name === 'anthropic') {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const wire = injected({ 'content-type': 'text/event-stream', 'request-id': 'req_bench' });
    const client = new Anthropic({
      apiKey: 'sk-ant-bench',
      baseURL: 'http://bench.invalid',
      maxRetries: 0,
      fetch: wire.fetch,
    });
    return async (body, onEvent) => {
      wire.answer(body);
      const stream = await client.messages.create({
        model: 'bench-model',
        max_tokens: 16,
        messages,
        stream: true,
      });
      for await (const data of stream) onEvent(data);
    };
  }
  if (name === 'openai') {
    const { default: OpenAI } = await import('openai');
    const wire = injected({ 'content-type': 'text/event-stream', 'x-request-id': 'req_bench' });
    const client = new OpenAI({
      apiKey: 'sk-bench',
      baseURL: 'http://bench.invalid/v1',
      maxRetries: 0,
      fetch: wire.fetch,
    });
    return async (body, onEvent) => {
      wire.answer(body);
      const stream = await client.chat.completions.create({ model: 'bench-model', messages, stream: true });
      for await (const data of stream) onEvent(data);
    };
  }
  if (name === 'parser') {
    const { createParser } = await import('eventsource-parser');
    return async (body, onEvent) => {
      const parser = createParser({ onEvent: (event) => onEvent(JSON.parse(event.data)) });
      const decoder = new TextDecoder();
      const reader = body.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read())
        parser.feed(decoder.decode(r.value, { stream: true }));
      const rest = decoder.decode();
      if (rest) parser.feed(rest);
    };
  }
  if (name === 'parser-stream') {
    const { EventSourceParserStream } = await import('eventsource-parser/stream');
    return async (body, onEvent) => {
      const reader = body
        .pipeThrough(new TextDecoderStream())
        .pipeThrough(new EventSourceParserStream())
        .getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) onEvent(JSON.parse(r.value.data));
    };
  }
  if (name === 'splitter') return (body, onEvent) => splitEvents(body, (data) => onEvent(JSON.parse(data)));
  throw new Error(`no contender ${name}`);
}
