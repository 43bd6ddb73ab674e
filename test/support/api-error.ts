import { expect } from 'vitest';
import { ApiError } from '../../src/index.js';

/** The `ApiError` a call rejects with; fails the test when it resolves or throws something else. */
export async function apiError(call: PromiseLike<unknown>): Promise<ApiError> {
  const error = await Promise.resolve(call).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

/** An `ApiError` of `status` and `code`, as the transport builds one; `extra` sets the other fields. */
export function api(
  status: number,
  code: string,
  extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {},
) {
  return new ApiError({
    status,
    code,
    message: code,
    data: null,
    requestId: undefined,
    errorDetails: undefined,
    ...extra,
  });
}
