import type { ElicitationValidator } from '../contract/elicitation.js';
import type { CancelBody, CancelResult } from '../contract/interactions.js';
import { LIMITS } from '../contract/limits.js';
import type { Turn, TurnSend, TurnStreamBody } from '../contract/turn.js';
import type { ApiPromise } from '../http/api-promise.js';
import type { RequestOptions, Transport } from '../http/transport.js';
import {
  openTurnStream,
  runTurnStream,
  type StreamOptions,
  type TurnOptions,
  type TurnSetup,
} from '../turn/open.js';
import type { RunHandlers } from '../turn/run.js';
import { type SentTurn, sendTurn } from '../turn/send.js';
import type { TurnStream } from '../turn/turn-stream.js';
import type { Actions } from './actions.js';
import { Resource } from './resource.js';

/** `client.turns`: sending turns (4.3, 4.4) and cancelling them (4.6). */
export class Turns extends Resource {
  readonly #actions: Actions;
  readonly #validate: ElicitationValidator | undefined;
  readonly #maxTurnBytes: number | undefined;

  /** @internal */
  constructor(
    transport: Transport,
    actions: Actions,
    validate?: ElicitationValidator,
    maxTurnBytes?: number,
  ) {
    super(transport);
    this.#actions = actions;
    this.#validate = validate;
    this.#maxTurnBytes = maxTurnBytes;
  }

  /**
   * Streams a turn (`permission_mode` `manual` by default). Returns at once and never throws; nothing is
   * checked or sent before the stream is first read, and every error, a `ValidationError` of the chat id
   * or the body included, fails that read. A broken connection is recovered through the key.
   */
  stream(chatId: string, body: TurnStreamBody, options: StreamOptions = {}): TurnStream {
    return openTurnStream(this.#setup(chatId, body, options));
  }

  /**
   * Streams a turn and answers each interaction through its handler, resolving with the finished turn.
   * A kind without a handler gets the safe default: tools rejected, plan rejected, elicitation declined,
   * auth cancelled. A handler that throws cancels the turn, then the promise rejects with its error; a bad
   * chat id or body rejects it too (nothing is thrown synchronously).
   */
  run(chatId: string, body: TurnStreamBody, options: StreamOptions & RunHandlers = {}): Promise<Turn> {
    return runTurnStream({ ...this.#setup(chatId, body, options), options });
  }

  /**
   * Cancels the chat's running turn (4.6), or with `action_id` the turn of that interaction. Idempotent:
   * `cancelled` says whether a turn was running.
   */
  cancel(chatId: string, body: CancelBody = {}, options?: RequestOptions): ApiPromise<CancelResult> {
    return this.api.call('turns.cancel', { chat_id: chatId }, options, body);
  }

  /**
   * Sends a turn and waits for the whole answer (`permission_mode` is always `auto` on this channel).
   * Repeats, with the same key, exactly what the contract says is safe; polls while the key's turn runs.
   * Every error it throws carries `idempotencyKey`; `.withResponse()` gives the turn with the raw response
   * of the exchange that returned it and its request id.
   */
  send(chatId: string, body: TurnSend, options: TurnOptions = {}): ApiPromise<SentTurn> {
    return this.api.call('turns.send', { chat_id: chatId }, options, body, (call) =>
      sendTurn(this.transport, call, chatId, options),
    );
  }

  #setup(chatId: string, body: TurnStreamBody, options: StreamOptions): TurnSetup {
    return {
      transport: this.transport,
      chatId,
      request: () =>
        this.api.prepare('turns.stream', { chat_id: chatId }, body) as { path: string; body: object },
      options,
      answer: (...args) => this.#actions.answer(...args),
      cancel: (id) => this.cancel(id),
      status: (id, messageId, request) => this.#status(id, messageId, request),
      validate: this.#validate,
      maxTurnBytes: this.#maxTurnBytes,
    };
  }

  /**
   * The status of one turn of a chat, from the message listing (6: `message_id` finds the turn there), or
   * undefined when it is not listed. One page of the largest size; a chat of more turns also needs its
   * last page, where the newest turn (the only one that can still run, 3.4) is.
   */
  async #status(chatId: string, messageId: number, options: RequestOptions): Promise<string | undefined> {
    const size = LIMITS.pageSizeMax;
    const page = async (number: number) => {
      const list = await this.api.list(
        'chats.messages',
        { chat_id: chatId },
        { page: number, size },
        options,
      );
      return { found: list.items.find((turn) => turn.id === messageId)?.status, total: list.total };
    };
    const first = await page(1);
    const last = Math.ceil(first.total / size);
    if (first.found !== undefined || last <= 1) return first.found;
    return (await page(last)).found;
  }
}
