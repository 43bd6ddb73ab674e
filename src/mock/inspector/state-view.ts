import type { ConvoMock } from '../mock.js';
import { DIRECTIVE_NAMES } from '../model/directives.js';
import type { TurnRecord } from '../state/records.js';
import { MockStore, type MockStoreView } from '../state/store.js';
import type { CredentialNames } from './credential-names.js';
import {
  BODY_CAP,
  type Exchange,
  type ExchangeFilter,
  type ExchangeLog,
  MAX_EXCHANGES,
  summaryOf,
} from './exchanges.js';
import { InspectorInputError } from './input.js';
import type { TokenMask } from './masking.js';
import type { PageFaults } from './page-faults.js';
import { Revisions } from './revisions.js';
import { boundPayload } from './timeline.js';
import {
  streamView,
  TURN_DETAIL_CHARS,
  TURN_PREVIEW_CHARS,
  type TurnContext,
  turnDetail,
  turnPreview,
} from './turn-view.js';

/** Turns the state lists; older ones are left out. */
const MAX_TURNS = 50;
/** Pending interactions the state lists, and the characters of each payload, about. */
const MAX_PENDING = 50;
const PENDING_PAYLOAD_CHARS = 8 * 1024;

/** What the inspector's read endpoints answer, every token masked and every list bounded. */
export class StateView {
  readonly #mock: ConvoMock;
  readonly #names: CredentialNames;
  readonly #mask: TokenMask;
  readonly #log: ExchangeLog;
  readonly #faults: PageFaults;
  readonly #revisions = new Revisions();
  readonly #turns: TurnContext;

  constructor(
    mock: ConvoMock,
    parts: { names: CredentialNames; mask: TokenMask; log: ExchangeLog; faults: PageFaults },
  ) {
    this.#mock = mock;
    this.#names = parts.names;
    this.#mask = parts.mask;
    this.#log = parts.log;
    this.#faults = parts.faults;
    this.#turns = {
      names: parts.names,
      mask: parts.mask,
      model: (id) => `${id} ${mock.store.fixtures.models.find((m) => m.id === id)?.code ?? ''}`.trim(),
      streams: (turnId) => parts.log.streamsOf(turnId),
    };
  }

  /**
   * The state the page polls (`/_inspector/state`): the last `MAX_TURNS` turns cut per turn
   * (`turnPreview`), pending interactions, faults, credentials and the requests that pass `filter`. Given
   * the cursor of an earlier answer (`?since=`), only the turns that changed after it (`turnIds` still
   * names every listed turn, newest first), and the requests only when the log changed (absent otherwise).
   */
  state(filter: ExchangeFilter, cursor: string | null) {
    const since = this.#revisions.since(cursor);
    const log = this.#log;
    const turns = this.#revisions.turns(
      lastTurns(this.#mock.store, MAX_TURNS).reverse(),
      (turn) =>
        [
          turn.key,
          turn.created_at,
          turn.status,
          turn.content.length,
          turn.usage?.total_tokens,
          turn.error?.code,
          log.streamsMark(turn.id),
        ].join('|'),
      (turn) => turnPreview(turn, this.#turns),
      since,
    );
    const requests = this.#revisions.logChanged(log.revision, since)
      ? log.list(filter).map(summaryOf)
      : undefined;
    return {
      cursor: this.#revisions.cursor(),
      full: since === undefined,
      credentials: this.#names.list(),
      directives: DIRECTIVE_NAMES,
      limits: {
        exchanges: MAX_EXCHANGES,
        bodyChars: BODY_CAP,
        turns: MAX_TURNS,
        turnPreviewChars: TURN_PREVIEW_CHARS,
        turnDetailChars: TURN_DETAIL_CHARS,
      },
      ...(requests && { requests }),
      turnIds: turns.ids,
      turns: turns.changed,
      pending: this.#pending(),
      faults: this.#mask.json(this.#faults.list()),
    };
  }

  /** Turn `id` with its whole prompt and content, each cut at `TURN_DETAIL_CHARS` (`/_inspector/turn`). */
  turn(id: string) {
    const turn = /^[1-9]\d{0,9}$/.test(id) ? findTurn(this.#mock.store, Number(id)) : undefined;
    if (!turn) throw new InspectorInputError(`no turn ${id.slice(0, 20)}`);
    return turnDetail(turn, this.#turns);
  }

  /** An exchange in full, its stream's folded text masked (a token may span deltas). */
  exchange(exchange: Exchange) {
    const { timeline } = exchange;
    return { ...exchange, timeline: timeline && streamView(timeline, this.#mask, Number.POSITIVE_INFINITY) };
  }

  #pending() {
    const now = Date.now();
    const mask = this.#mask;
    return this.#mock.store
      .pendingInteractions()
      .slice(0, MAX_PENDING)
      .map((interaction) => ({
        action_id: interaction.action_id,
        kind: interaction.kind,
        payload: boundPayload(mask.json(interaction.payload), PENDING_PAYLOAD_CHARS),
        resolution: mask.json(interaction.resolution),
        turn_id: interaction.turn_id,
        chat_id: mask.text(interaction.chat_id),
        credential: this.#names.name(interaction.credential_id),
        remaining_ms: Math.max(0, interaction.expires_at_ms - now),
      }));
  }
}

/**
 * The last `count` turns, oldest first. The mock's own store is read in place: copying every turn (each up
 * to a 100,000-word answer) on every poll would cost the whole history.
 */
function lastTurns(store: MockStoreView, count: number): TurnRecord[] {
  if (!(store instanceof MockStore)) return store.turns().slice(-count);
  return [...store.turnsById.values()].slice(-count);
}

/** Turn `id`, read in place from the mock's own store. */
function findTurn(store: MockStoreView, id: number): TurnRecord | undefined {
  return store instanceof MockStore ? store.turnsById.get(id) : store.turns().find((turn) => turn.id === id);
}
