import { Uuid } from '../contract/checks.js';
import { blockedBy, type CheckName } from './types.js';
import { expectThat, Failure, Skip, show } from './verdict.js';
import type { Answer, StreamAnswer, Wire } from './wire.js';

/** The credentials of a run: `main` holds every scope; the others unlock the checks that need them. */
export interface Tokens {
  /** A credential with every scope of section 5. */
  main: string;
  /** A second credential with `chat:read` and `chat:write`, for what one may not see or change of another's. */
  other?: string | undefined;
  /** A credential with `chat:read` only, for scope answers and the catalog's blocks. */
  limited?: string | undefined;
  /** A credential restricted to an allowlist of skills (5), for the refusal to create one (7.2). */
  restricted?: string | undefined;
}

/** The names `--token NAME=TOKEN` accepts, besides the unnamed main credential. */
export const TOKEN_NAMES = ['other', 'limited', 'restricted'] as const;

/**
 * What the checks share: the wire, the credentials, what the run created (and so may change and delete),
 * and what checks share through `once` (the plain turns of `plain-turns.ts`).
 */
export class Context {
  /** Chats the run created. */
  readonly chats = new Set<string>();
  /** Chats a turn was sent to whose answer never came whole: they may exist, and are deleted if they do. */
  readonly maybeChats = new Set<string>();
  /** Chats another credential sent a turn to that the service may have created: deleted with that credential. */
  readonly foreignChats = new Map<string, string>();
  /** Skills the run created and has not deleted yet. */
  readonly skills = new Set<number>();
  /** The start of every name the run gives, so that what it made is recognisable in the service. */
  readonly prefix = `convo-conformance-${crypto.randomUUID().slice(0, 8)}`;
  /** The check running now: whoever first needs a shared turn owns its failure. */
  current: CheckName | undefined;
  #shared = new Map<string, { owner: CheckName | undefined; promise: Promise<unknown> }>();

  constructor(
    readonly wire: Wire,
    readonly tokens: Tokens,
    /** A user of another company than the main credential's, for the refusal to share a skill outside it. */
    readonly outsideUserId?: number | undefined,
  ) {}

  /** A credential by name, or a skip saying which `--token` to give. */
  token(name: (typeof TOKEN_NAMES)[number]): string {
    const token = this.tokens[name];
    if (token === undefined) {
      const what = {
        other: 'a second credential (chat:read, chat:write)',
        limited: 'a credential with chat:read only',
        restricted: 'a credential restricted to an allowlist of skills',
      }[name];
      const env = name === 'restricted' ? ' or CONVO_API_TOKEN_RESTRICTED' : '';
      throw new Skip(`needs ${what}: --token ${name}=TOKEN${env}`);
    }
    return token;
  }

  /** A name for something the run creates: the run's prefix, then `what`. */
  name(what: string): string {
    return `${this.prefix} ${what}`;
  }

  /** A new chat id: sending to it creates it (3.4); `sendTo` records it. */
  newChatId(): string {
    return crypto.randomUUID();
  }

  /**
   * Records the chat a turn was sent to as the run's own when the send was answered `status` 2xx, or as one
   * that may exist when no status came; a refusal created nothing, and deleting it would fail. The id is the
   * run's own.
   */
  sentTo(chatId: string, status: number | undefined, token = this.tokens.main): void {
    const created = status !== undefined && status >= 200 && status <= 299;
    if (token !== this.tokens.main) {
      if (status === undefined || created) this.foreignChats.set(chatId, token);
    } else if (created) this.chats.add(chatId);
    else if (status === undefined) this.maybeChats.add(chatId);
  }

  /** Sends a turn to `chatId` with `send` (as `token`, the main credential by default), recording the chat as `sentTo` says. */
  async sendTo<T extends Answer>(
    chatId: string,
    send: () => Promise<T>,
    token = this.tokens.main,
  ): Promise<T> {
    let status: number | undefined;
    try {
      const answer = await send();
      status = answer.status;
      return answer;
    } catch (error) {
      // Answered, then not read to the end (a body over the bound, say): the status still tells.
      if (error instanceof Failure) status = error.request?.status;
      throw error;
    } finally {
      this.sentTo(chatId, status, token);
    }
  }

  /** How many records the cleanup may have to delete. */
  get holdings(): number {
    return this.skills.size + this.chats.size + this.maybeChats.size + this.foreignChats.size;
  }

  /**
   * The id of the skill or chat a creation answered with, recorded as the run's own only when it is one:
   * a success, an id of the contract's format (4.1 an integer, 4.2 a uuid) that the run has not seen yet,
   * which reads back with the name the run gave (a service that answers with an existing id is caught
   * before anything changes it). Anything else fails, and the run never touches that id again.
   */
  async created(kind: 'skill', answer: Answer, name: string): Promise<number>;
  async created(kind: 'chat', answer: Answer, name: string): Promise<string>;
  async created(kind: 'skill' | 'chat', answer: Answer, name: string): Promise<number | string> {
    if (answer.status !== 201) expectStatus(answer, kind === 'skill' ? 201 : 200);
    const data = answer.data as { id?: unknown; name?: unknown } | undefined;
    const id = data?.id;
    const ok =
      kind === 'skill'
        ? Number.isSafeInteger(id) && (id as number) > 0 && !this.skills.has(id as number)
        : typeof id === 'string' && Uuid.safeParse(id).success && !this.chats.has(id);
    const expected = `a new ${kind} named ${show(name)} with ${kind === 'skill' ? 'an integer id (4.1)' : 'a uuid id (4.2)'}`;
    expectThat(ok && data?.name === name, expected, () => `id ${show(id)} named ${show(data?.name)}`, answer);
    const own = () => (kind === 'skill' ? this.skills.add(id as number) : this.chats.add(id as string));
    let read: Answer;
    try {
      read = await this.wire.call('GET', `/api/v1/${kind}s/${id}`, { token: this.tokens.main });
    } catch (error) {
      own(); // Not read back (the run stopped, or no answer): created all the same, so the run's to delete.
      throw error;
    }
    const readName = (read.data as { name?: unknown } | undefined)?.name;
    // Only a read-back naming another record vetoes the id: an unreadable one leaves it the run's to delete.
    if (typeof readName !== 'string' || readName === name) own();
    expectThat(
      read.status === 200 && readName === name,
      `${kind} ${show(id)} reading back as created, named ${show(name)}`,
      () => `${read.status} named ${show(readName)}`,
      read,
    );
    return id as number | string;
  }

  /** A new `Idempotency-Key`. */
  newKey(): string {
    return `${this.prefix}-${crypto.randomUUID()}`;
  }

  /**
   * Shares what `make` gives among checks: the check that first needs it owns its failure; the others are
   * skipped as blocked by that one (one defect, one FAIL).
   */
  async once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let entry = this.#shared.get(key);
    if (!entry) {
      entry = { owner: this.current, promise: make() };
      this.#shared.set(key, entry);
    }
    try {
      return (await entry.promise) as T;
    } catch (error) {
      if (entry.owner && entry.owner !== this.current && error instanceof Failure) {
        throw new Skip(`blocked by ${blockedBy(entry.owner)}`);
      }
      throw error;
    }
  }

  /**
   * Deletes what the run created and nothing else; returns what could not be deleted. A chat that may exist
   * is listed only when the service answered its DELETE with neither 200 nor 404: one never created is not
   * "left behind".
   */
  async cleanup(): Promise<string[]> {
    const left: string[] = [];
    const remove = async (path: string, known: boolean, token = this.tokens.main) => {
      try {
        const answer = await this.wire.call('DELETE', path, { token });
        if (answer.status !== 200 && answer.status !== 404) left.push(`${path} (${answer.status})`);
      } catch {
        if (known) left.push(path);
      }
    };
    for (const id of this.skills) await remove(`/api/v1/skills/${id}`, true);
    for (const id of this.chats) await remove(`/api/v1/chats/${id}`, true);
    for (const id of this.maybeChats) if (!this.chats.has(id)) await remove(`/api/v1/chats/${id}`, false);
    for (const [id, token] of this.foreignChats) await remove(`/api/v1/chats/${id}`, false, token);
    return left;
  }
}

/** Fails unless the answer has `status` (and `code`, when given). */
export function expectStatus(answer: Answer, status: number, code?: string): void {
  if (answer.status === status && (code === undefined || answer.code === code)) return;
  throw new Failure(
    code === undefined ? `status ${status}` : `${status} ${code}`,
    `${answer.status} ${answer.code ?? show(answer.body, 200)}`,
    answer,
  );
}

/** The events of a streamed turn by name, in order. */
export function eventNames(answer: StreamAnswer): string[] {
  return answer.events.map((event) => event.event);
}
