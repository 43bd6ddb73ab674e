/** Every error class the SDK throws, in one place: `ConvoError` and its subclasses. */
import {
  AbortError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  ConvoError,
  HookError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RedirectError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
} from './base.js';
import { brand } from './brand.js';
import { AnswerOutcomeUnknownError, InteractionExpiredError } from './interaction.js';
import { StreamBreak, UnreadableTerminalError } from './stream.js';
import { RelayedTurnError, StreamInterruptedError, TurnError, TurnFailedError } from './turn.js';

export * from './base.js';
export * from './interaction.js';
export * from './stream.js';
export * from './turn.js';

// Every class above, so that `instanceof` holds across the package's copies; a class added here without
// its brand fails test/unit/error-identity.test.ts.
brand({
  AbortError,
  AnswerOutcomeUnknownError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  ConvoError,
  HookError,
  InteractionExpiredError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RedirectError,
  RelayedTurnError,
  ResponseTooLargeError,
  ResponseValidationError,
  StreamBreak,
  StreamInterruptedError,
  TimeoutError,
  TurnError,
  TurnFailedError,
  UnprocessableEntityError,
  UnreadableTerminalError,
  ValidationError,
});
