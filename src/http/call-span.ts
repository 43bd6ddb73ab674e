import type { TelemetryGate } from '../telemetry/gate.js';
import type { Call, Result, Run } from './call.js';
import { queryString } from './request-parts.js';

/** Sends a call through the retry entry: `status` is told the status of the answer it returns. */
export type SendCall<T> = (
  call: Call<T>,
  run: Run | undefined,
  status?: (code: number) => void,
) => Promise<Result<T>>;

/**
 * `send` inside the call's CLIENT span: its trace context in the request's headers, each attempt and the
 * answer's status recorded, the span ended with the result or the error. Telemetry never fails a call: a
 * recorder that could not load leaves it unrecorded.
 */
export async function inSpan<T>(
  gate: TelemetryGate,
  call: Call<T>,
  run: Run | undefined,
  send: SendCall<T>,
): Promise<Result<T>> {
  const telemetry = await gate.load().catch(() => undefined);
  if (!telemetry) return send(call, run);
  const path = call.path + queryString(call.query);
  const span = telemetry.call({ ...call, name: call.name ?? `${call.method} ${call.path}`, path });
  const traced = { ...call, headers: span.headers(call.headers) };
  try {
    const result = await send(traced, { ...run, attempt: (n) => span.attempt(n) }, (code) =>
      span.status(code),
    );
    span.end(undefined, result.data);
    return result;
  } catch (error) {
    span.end(error);
    throw error;
  }
}
