/**
 * `convo-sdk/ai`: chat UIs on the AI SDK (`ai`). `ConvoChatTransport` lets `useChat` (and the `Chat` of
 * every binding) drive the service; `toUIMessageStream` answers `useChat`'s default transport from a
 * server route; `messageText` gives what to show of a message; `toUIMessages` gives a chat's saved turns
 * as `useChat` messages.
 *
 * @module
 */

export { RedisUnavailableError, RouteCapacityError } from '../index.js';
export { answerInteraction } from './answer.js';
export { chatMessagesToUI, type HistoryOptions, toUIMessages } from './history.js';
export {
  type ConvoChunk,
  type ConvoDataParts,
  type ConvoMetadata,
  type ConvoUIMessage,
  type InteractionAnswer,
  type InteractionCommon,
  type InteractionData,
  messageText,
  type TurnFields,
} from './parts.js';
export { MAX_PAUSED_READS } from './paused.js';
export { type StopMode, toUIMessageStream, type UIStreamOptions } from './readable.js';
export { MAX_RECORDS, type TurnRecord, type TurnRecordStore } from './records.js';
export {
  type ChatAuthorizer,
  type ChatGrant,
  type ChatRoute,
  type ChatRouteOptions,
  createChatRoute,
  EVERY_CHAT_TO_EVERY_CALLER,
} from './route.js';
export { MAX_CALLER_BYTES, MAX_CALLER_STREAMS, MAX_HELD_BYTES } from './route-holds.js';
export {
  MAX_ROUTE_BODY_BYTES,
  MAX_ROUTE_BODY_MS,
  MAX_ROUTE_STREAM_BYTES,
  MAX_ROUTE_STREAM_MS,
  MAX_STOP_WAIT_MS,
} from './route-limits.js';
export type { RouteRecord, RouteRecordStore } from './route-records.js';
export { LEASE_MS, type RouteRedisClient, type RouteRedisOptions } from './route-redis.js';
export { MAX_LIVE_STREAMS, memoryStreams, type RouteStreams } from './route-streams.js';
export { ConvoRouteTransport } from './route-transport.js';
export { ConvoChatTransport, type ConvoChatTransportOptions } from './transport.js';
