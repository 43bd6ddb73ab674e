import {
  type ConvoMock,
  createMock,
  type MockCredential,
  type MockOptions,
} from '../../../src/mock/index.js';
import { CHAT_TOKENS, TOKENS } from '../../mock/helpers.js';

/** One reading's behaviour, run against a fresh in-process mock; it fails when the mock does otherwise. */
export type ReadingCheck = () => Promise<void>;

/** The readings of one section of docs/readings.md, keyed by the first cell of their row. */
export type ReadingChecks = Record<string, ReadingCheck>;

/** The credentials of the skill and the chat tests together. */
export const ALL_TOKENS: readonly MockCredential[] = [
  ...TOKENS,
  ...CHAT_TOKENS.filter((chat) => !TOKENS.some((skill) => skill.token === chat.token)),
];

/** A fresh mock with `ALL_TOKENS`. */
export function fresh(options: MockOptions = {}): ConvoMock {
  return createMock({ tokens: ALL_TOKENS, ...options });
}

/** A new chat id. */
export const newChat = (): string => crypto.randomUUID();
