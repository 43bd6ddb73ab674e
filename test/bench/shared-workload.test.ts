// The shared workload of benchmark 11 (bench/lib/*.mjs): the harness's bytes and cuts, and the rewrite into the
// contract's stream that the client reads there, so that `npm run bench` and the shared harness measure the
// same work.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bodyOf } from '../../bench/lib/seeded.mjs';
import { CHAT, completedChunks, toSpecStream } from '../../bench/lib/spec-stream.mjs';
import { splitEvents } from '../../bench/lib/splitter.mjs';
import {
  DELTA_EVENT,
  END_EVENT,
  firstEventBody,
  harnessChunks,
  SEED,
  START_EVENT,
} from '../../bench/lib/workload.mjs';

const decoder = new TextDecoder();

async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const reader = body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
  return chunks;
}

const text = (chunks: Uint8Array[]) => chunks.map((c) => decoder.decode(c, { stream: true })).join('');

describe('the shared workload', () => {
  it("is the harness's body, cut as the harness cuts it (its input digest)", () => {
    const chunks = harnessChunks(200_000, SEED);
    const bytes = new Uint8Array(chunks[0]!.buffer);
    expect(bytes.length).toBe(12_200_122);
    expect(chunks.length).toBe(5_935);
    expect(chunks.every((c) => c.length >= 1 && c.length <= 4096)).toBe(true);
    const digest = createHash('sha256')
      .update(bytes)
      .update(Uint32Array.from(chunks, (c) => c.length))
      .digest('hex')
      .slice(0, 16);
    expect(digest).toBe('c97dea6ad7037e2b'); // the harness's `input.digest` (results/sse-throughput.json)
  });

  it('the splitter hands out each event of a body cut anywhere, with its name', async () => {
    const events: Array<[string, string | null]> = [];
    await splitEvents(
      bodyOf(harnessChunks(50, 7).flatMap((c) => [c.subarray(0, 1), c.subarray(1)])),
      (data, event) => events.push([data, event]),
    );
    expect(events).toHaveLength(52);
    expect(events[0]).toEqual(['{"id":"msg_bench","model":"bench-model"}', 'message.start']);
    expect(events[1]).toEqual(['{"text":"word ","replace":false}', 'message.delta']);
    expect(events[51]).toEqual(['{"stop_reason":"end_turn"}', 'message.end']);
  });
});

describe("the rewrite into the contract's stream", () => {
  it("hands on the contract's start, the deltas as they are, then message.completed with the whole answer", async () => {
    const source = harnessChunks(1_000, SEED);
    const out = await readAll(toSpecStream(bodyOf(source)));
    const events = text(out).split('\n\n').slice(0, -1);
    expect(events).toHaveLength(1_002);
    expect(JSON.parse(events[0]!.split('data: ')[1]!)).toMatchObject({ chat_id: CHAT, message_id: 1 });
    expect(new Set(events.slice(1, -1))).toEqual(new Set([DELTA_EVENT.slice(0, -2)]));
    const [name, data] = events.at(-1)!.split('\n');
    expect(name).toBe('event: message.completed');
    expect(JSON.parse(data!.slice(6))).toMatchObject({ chat_id: CHAT, content: 'word '.repeat(1_000) });
    // The chunks between are the source's own, handed on as they are.
    expect(out.filter((c) => source.includes(c)).length).toBeGreaterThan(source.length - 3);
    // message.completed in the seeded cuts, built once per answer.
    expect(out.slice(-completedChunks(1_000).length)).toEqual(completedChunks(1_000));
  });

  it('hands on the start as soon as its bytes have arrived, before the rest of the body', async () => {
    const marks: { enqueuedAt?: number; closedAt?: number } = {};
    const reader = toSpecStream(firstEventBody({ holdMs: 1, delayMs: 0, marks })).getReader();
    const first = await reader.read();
    expect(decoder.decode(first.value)).toContain(`"chat_id":"${CHAT}"`);
    // The body's end is sent in a later task: the start came through first.
    expect(marks.enqueuedAt).toBeGreaterThan(0);
    expect(marks.closedAt).toBeUndefined();
    const rest: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest.push(r.value);
    expect(text(rest)).toMatch(/^event: message.completed\n/);
  });

  it('refuses a body that is not the harness start, deltas and end', async () => {
    const bad = new TextEncoder().encode(`${START_EVENT}${DELTA_EVENT.slice(3)}${END_EVENT}`);
    await expect(readAll(toSpecStream(bodyOf([bad])))).rejects.toThrow(/not start, deltas, end/);
  });
});
