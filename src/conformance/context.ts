import { Failure, Skip, show } from './verdict.js';
import type { Answer, StreamAnswer, Wire } from './wire.js';

/** The credentials of a run: `main` holds every scope; the others unlock the checks that need them. */
export interface Tokens {
  /** A credential with every scope of section 5. */
  main: string;
  /** A second credential with `chat:read` and `chat:write`, for what one may not see or change of another's. */
  other?: string | undefined;
  /** A credential with `chat:read` only, for scope answers and the catalog's blocks. */
  limited?: string | undefined;
}

/** The names `--token NAME=TOKEN` accepts, besides the unnamed main credential. */
export const TOKEN_NAMES = ['other', 'limited'] as const;

/** The content of every turn the run sends: plain text, no directive a scripted model would act on. */
export const TURN_CONTENT = 'Conformance check: please answer in one short sentence.';

/** A streamed turn the run sent, as it came. */
export interface StreamedTurn {
  /** The chat it was sent to (created by the send, 3.4). */
  chatId: string;
  /** Its `Idempotency-Key`. */
  key: string;
  /** The body sent. */
  body: { content: string; permission_mode: 'auto' };
  /** The answer, events included. */
  answer: StreamAnswer;
}

/** A synchronous turn the run sent. */
export interface SyncTurn {
  /** The chat it was sent to. */
  chatId: string;
  /** Its `Idempotency-Key`. */
  key: string;
  /** The body sent. */
  body: { content: string; permission_mode: 'auto' };
  /** The answer. */
  answer: Answer;
}

/**
 * What the checks share: the wire, the credentials, what the run created (and so may delete), and the
 * two turns, each sent once on first need.
 */
export class Context {
  /** Chats the run created. */
  readonly chats = new Set<string>();
  /** Skills the run created and has not deleted yet. */
  readonly skills = new Set<number>();
  #streamed: Promise<StreamedTurn> | undefined;
  #synced: Promise<SyncTurn> | undefined;

  constructor(
    readonly wire: Wire,
    readonly tokens: Tokens,
  ) {}

  /** A credential by name, or a skip saying which `--token` to give. */
  token(name: 'other' | 'limited'): string {
    const token = this.tokens[name];
    if (token === undefined) {
      const what =
        name === 'other' ? 'a second credential (chat:read, chat:write)' : 'a credential with chat:read only';
      throw new Skip(`needs ${what}: --token ${name}=TOKEN`);
    }
    return token;
  }

  /** A new chat id: sending to it creates it (3.4); `sendTo` records it. */
  newChatId(): string {
    return crypto.randomUUID();
  }

  /**
   * Records the chat a turn was sent to as the run's own when the send was answered 2xx, or not read to the
   * end (it may exist); a refusal created nothing, and deleting it would fail.
   */
  sentTo(chatId: string, answer: Answer | undefined): void {
    if (!answer || (answer.status >= 200 && answer.status <= 299)) this.chats.add(chatId);
  }

  /** Sends a turn to `chatId` with `send`, recording the chat as `sentTo` says. */
  async sendTo<T extends Answer>(chatId: string, send: () => Promise<T>): Promise<T> {
    let answer: T | undefined;
    try {
      answer = await send();
      return answer;
    } finally {
      this.sentTo(chatId, answer);
    }
  }

  /**
   * Records the chat or skill a creation answered with, whatever success status it came with, so that the cleanup deletes
   * it even when the check then fails.
   */
  created(answer: Answer): void {
    const id = (answer.data as { id?: unknown } | undefined)?.id;
    if (answer.status < 200 || answer.status > 299) return;
    if (typeof id === 'string') this.chats.add(id);
    else if (typeof id === 'number') this.skills.add(id);
  }

  /** A new `Idempotency-Key`. */
  newKey(): string {
    return `conformance-${crypto.randomUUID()}`;
  }

  /** The run's streamed turn, sent on first need (4.4). */
  streamed(): Promise<StreamedTurn> {
    this.#streamed ??= (async () => {
      const chatId = this.newChatId();
      const key = this.newKey();
      const body = { content: TURN_CONTENT, permission_mode: 'auto' as const };
      const answer = await this.sendTo(chatId, () =>
        this.wire.stream(`/api/v1/chats/${chatId}/messages/stream`, { token: this.tokens.main, body, key }),
      );
      if (answer.status !== 200 || !answer.contentType.startsWith('text/event-stream')) {
        throw new Failure(
          '4.4: 200 text/event-stream',
          `${answer.status} ${answer.contentType || 'no content type'} ${show(answer.body)}`,
          answer.requestId,
        );
      }
      return { chatId, key, body, answer };
    })();
    return this.#streamed;
  }

  /** The run's synchronous turn, sent on first need (4.3). */
  synced(): Promise<SyncTurn> {
    this.#synced ??= (async () => {
      const chatId = this.newChatId();
      const key = this.newKey();
      const body = { content: TURN_CONTENT, permission_mode: 'auto' as const };
      const answer = await this.sendTo(chatId, () =>
        this.wire.call('POST', `/api/v1/chats/${chatId}/messages`, { token: this.tokens.main, body, key }),
      );
      expectStatus(answer, 200);
      return { chatId, key, body, answer };
    })();
    return this.#synced;
  }

  /** Deletes what the run created and nothing else; returns what could not be deleted. */
  async cleanup(): Promise<string[]> {
    const left: string[] = [];
    const remove = async (path: string) => {
      try {
        const answer = await this.wire.call('DELETE', path, { token: this.tokens.main });
        if (answer.status !== 200 && answer.status !== 404) left.push(`${path} (${answer.status})`);
      } catch {
        left.push(path);
      }
    };
    for (const id of this.skills) await remove(`/api/v1/skills/${id}`);
    for (const id of this.chats) await remove(`/api/v1/chats/${id}`);
    return left;
  }
}

/** Fails unless the answer has `status` (and `code`, when given). */
export function expectStatus(answer: Answer, status: number, code?: string): void {
  if (answer.status === status && (code === undefined || answer.code === code)) return;
  throw new Failure(
    code === undefined ? `status ${status}` : `${status} ${code}`,
    `${answer.status} ${answer.code ?? show(answer.body, 200)}`,
    answer.requestId,
  );
}

/** Fails unless the answer is a success (200 or 201: 4.2 does not say which a chat's creation answers). */
export function expectCreated(answer: Answer): void {
  if (answer.status !== 201) expectStatus(answer, 200);
}

/** The events of a streamed turn by name, in order. */
export function eventNames(answer: StreamAnswer): string[] {
  return answer.events.map((event) => event.event);
}
