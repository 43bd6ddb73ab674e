import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import type { Call, Result, Run } from '../../src/http/call.js';
import { inSpan, type SendCall } from '../../src/http/call-span.js';
import type { TelemetryGate } from '../../src/telemetry/gate.js';

/** A call's CLIENT span around its attempts (`http/call-span.ts`), on a recorder that writes down what it is told. */

const call: Call<string> = {
  method: 'GET',
  path: 'skills',
  query: { page: 2, size: undefined },
  schema: z.string(),
  kind: 'repeatable',
  headers: { 'x-own': '1' },
};
const result = (data: string): Result<string> => ({
  data,
  meta: { request_id: 'r' },
  response: new Response(),
});

/** A gate whose recorder hands out one span that records its calls. */
function recording() {
  const told: unknown[][] = [];
  const span = {
    headers: (headers: Record<string, string> | undefined) => ({ ...headers, traceparent: 'tp' }),
    attempt: (n: number) => told.push(['attempt', n]),
    status: (code: number) => told.push(['status', code]),
    end: (...args: unknown[]) => told.push(['end', ...args]),
  };
  const infos: unknown[] = [];
  const telemetry = {
    call: (info: unknown) => {
      infos.push(info);
      return span;
    },
  };
  const gate = { load: async () => telemetry } as unknown as TelemetryGate;
  return { gate, told, infos };
}

describe("a call's span (inSpan)", () => {
  it('a recorder that could not load sends the call as it is, unrecorded', async () => {
    const gate = { load: () => Promise.reject(new Error('no api')) } as unknown as TelemetryGate;
    const run: Run = { deadline: 5 };
    const send = vi.fn<SendCall<string>>(async () => result('ok'));
    await expect(inSpan(gate, call, run, send)).resolves.toMatchObject({ data: 'ok' });
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]?.[0]).toBe(call);
    expect(send.mock.calls[0]?.[1]).toBe(run);
    expect(send.mock.calls[0]?.[2]).toBeUndefined();
  });

  it('named for the endpoint, else for its method and path; the path with its query', async () => {
    const { gate, infos } = recording();
    await inSpan(gate, call, undefined, async () => result('a'));
    await inSpan(gate, { ...call, name: 'skills.list', query: undefined }, undefined, async () =>
      result('b'),
    );
    expect(infos).toEqual([
      expect.objectContaining({ name: 'GET skills', method: 'GET', path: 'skills?page=2' }),
      expect.objectContaining({ name: 'skills.list', path: 'skills' }),
    ]);
  });

  it("sends with the span's headers, tells it each attempt and the status, and ends it with the data", async () => {
    const { gate, told } = recording();
    const attempts: number[] = [];
    const run: Run = { deadline: 7, attempt: (n) => attempts.push(n) };
    const got = await inSpan(gate, call, run, async (traced, tracedRun, status) => {
      expect(traced.headers).toEqual({ 'x-own': '1', traceparent: 'tp' });
      expect(traced.path).toBe('skills');
      expect(tracedRun?.deadline).toBe(7);
      tracedRun?.attempt?.(1);
      tracedRun?.attempt?.(2);
      status?.(201);
      return result('done');
    });
    expect(got.data).toBe('done');
    expect(told).toEqual([
      ['attempt', 1],
      ['attempt', 2],
      ['status', 201],
      ['end', undefined, 'done'],
    ]);
    expect(call.headers).toEqual({ 'x-own': '1' });
  });

  it('ends the span with the error and throws it', async () => {
    const { gate, told } = recording();
    const error = new Error('refused');
    await expect(inSpan(gate, call, undefined, () => Promise.reject(error))).rejects.toBe(error);
    expect(told).toEqual([['end', error]]);
  });
});
