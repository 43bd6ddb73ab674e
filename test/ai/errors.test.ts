import { describe, expect, it } from 'vitest';
import { turnChunks } from '../../src/ai/chunks.js';
import type { ConvoChunk } from '../../src/ai/index.js';
import { ApiError, type TurnStreamEvent } from '../../src/index.js';

/** The `retryable` a turn whose read failed with `error` reports in its message metadata. */
async function retryableOf(error: ApiError): Promise<boolean | undefined> {
  const events: AsyncIterator<TurnStreamEvent> = { next: () => Promise.reject(error) };
  const context = { messageId: 'm', chatId: 'c', idempotencyKey: 'k', shown: '', tools: new Set<string>() };
  const chunks: ConvoChunk[] = [];
  const read = turnChunks(events, context);
  for (let next = await read.next(); !next.done; next = await read.next()) chunks.push(next.value);
  for (const chunk of chunks)
    if (chunk.type === 'message-metadata' && chunk.messageMetadata?.convo?.error)
      return chunk.messageMetadata.convo.error.retryable;
  return undefined;
}

const apiError = (status: number, code: string, retry_action?: string) =>
  new ApiError({
    status,
    code,
    message: code,
    data: null,
    requestId: undefined,
    errorDetails: retry_action === undefined ? undefined : { retry_action },
  });

describe('an ApiError in the metadata of the message', () => {
  it.each([
    [503, 'api_v1_service_unavailable', 'retry', true],
    [503, 'api_v1_action_result_unknown', 'check_status', false],
    [502, 'bad_gateway', undefined, true],
    [503, 'service_unavailable', undefined, true],
    [504, 'gateway_timeout', undefined, true],
    [408, 'request_timeout', undefined, true],
    [403, 'insufficient_scope', undefined, false],
    [422, 'api_v1_validation_error', undefined, false],
  ])('7: %i %s (retry_action %s) is retryable: %s', async (status, code, action, expected) => {
    expect(await retryableOf(apiError(status, code, action))).toBe(expected);
  });
});
