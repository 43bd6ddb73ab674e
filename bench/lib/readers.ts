// The readers of benchmark 1: each reads an SSE turn body and returns the folded answer.
import { Client, RelayedTurnStream } from 'convo-sdk';
import { createParser } from 'eventsource-parser';
import { CHAT } from './sse.ts';

/** (a) The SDK: SSE parsing, contract validation of every event, folding, typed events. */
export async function viaTurnStream(body: ReadableStream<Uint8Array>): Promise<string> {
  const stream = RelayedTurnStream.fromReadableStream(body);
  let deltas = 0;
  for await (const event of stream) if (event.type === 'delta') deltas++;
  if (deltas === 0) throw new Error('no delta');
  return stream.text;
}

/**
 * (a') The SDK as an application uses it: `client.turns.stream` over an injected fetch that answers with the
 * body, read by a consumer that keeps the folded text (the key, the request, the connection layer included).
 */
export async function viaClient(body: ReadableStream<Uint8Array>): Promise<string> {
  const fetch = async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  const client = new Client({ baseUrl: 'https://api.test', token: 'bench', fetch });
  const stream = client.turns.stream(CHAT, { content: 'x' });
  let text = '';
  for await (const event of stream) if (event.type === 'delta') text = event.snapshot;
  if (text === '') throw new Error('no delta');
  return text;
}

/** (b) eventsource-parser and JSON.parse, nothing else. */
export async function viaParser(body: ReadableStream<Uint8Array>): Promise<string> {
  let text = '';
  const parser = createParser({
    onEvent(event) {
      const data = JSON.parse(event.data);
      if (event.event === 'message.delta') text += data.text;
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    parser.feed(decoder.decode(value, { stream: true }));
  }
}

/**
 * (c) The least a correct reader does: TextDecoder, indexOf of the blank line, JSON.parse (LF endings only).
 * Text without a blank line waits in `parts` unjoined, so that a large event (the terminal one carries the
 * whole answer) arriving in many chunks is not copied and searched again on each chunk.
 */
export async function viaSplitter(body: ReadableStream<Uint8Array>): Promise<string> {
  let text = '';
  const parts: string[] = [];
  let endsWithNewline = false;
  const decoder = new TextDecoder();
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    const chunk = decoder.decode(value, { stream: true });
    if (chunk.indexOf('\n\n') === -1 && !(endsWithNewline && chunk[0] === '\n')) {
      if (chunk) parts.push(chunk);
      endsWithNewline = chunk ? chunk.endsWith('\n') : endsWithNewline;
      continue;
    }
    parts.push(chunk);
    const buffer = parts.join('');
    parts.length = 0;
    let from = 0;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', from)) {
      const newline = buffer.indexOf('\n', from);
      const name = buffer.slice(from + 7, newline); // after "event: "
      const data = JSON.parse(buffer.slice(newline + 7, end)); // after "\ndata: "
      if (name === 'message.delta') text += data.text;
      from = end + 2;
    }
    const rest = buffer.slice(from);
    if (rest) parts.push(rest);
    endsWithNewline = rest.endsWith('\n');
  }
}
