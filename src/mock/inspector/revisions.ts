import type { TurnRecord } from '../state/records.js';
import type { TurnView } from './turn-view.js';

/** A turn's view as last built, the mark it was built at, and the revision it changed at. */
interface Kept {
  mark: string;
  revision: number;
  view: TurnView;
}

/**
 * What changed since a page's last poll, so that a poll costs what changed rather than the history. Every
 * change the inspector sees (a turn's mark, the exchange log's revision) takes the next revision; the state
 * answers a cursor (`instance-revision`) and, given one back, only what changed after it. A cursor of
 * another inspector (the mock restarted) or from its future is no cursor: everything is answered.
 */
export class Revisions {
  readonly #instance = crypto.randomUUID().slice(0, 8);
  #revision = 0;
  #turns = new Map<number, Kept>();
  #log = { mark: Number.NaN, revision: 0 };

  /** The cursor of what the state answers now. */
  cursor(): string {
    return `${this.#instance}-${this.#revision}`;
  }

  /** The revision `cursor` stands for, or undefined when it is absent, malformed or not this inspector's. */
  since(cursor: string | null): number | undefined {
    const match = /^([0-9a-f]{8})-(\d{1,15})$/.exec(cursor ?? '');
    if (!match || match[1] !== this.#instance) return undefined;
    const revision = Number(match[2]);
    return revision <= this.#revision ? revision : undefined;
  }

  /**
   * The views of `turns` (newest first): one is built again only when its `mark` (what changes as the turn
   * runs) differs from the last one; `changed` holds those that changed after `since` (all without it).
   */
  turns(
    turns: readonly TurnRecord[],
    mark: (turn: TurnRecord) => string,
    build: (turn: TurnRecord) => TurnView,
    since: number | undefined,
  ): { ids: number[]; changed: TurnView[] } {
    const kept = new Map<number, Kept>();
    const changed: TurnView[] = [];
    for (const turn of turns) {
      const now = mark(turn);
      let entry = this.#turns.get(turn.id);
      if (entry?.mark !== now) entry = { mark: now, revision: ++this.#revision, view: build(turn) };
      kept.set(turn.id, entry);
      if (since === undefined || entry.revision > since) changed.push(entry.view);
    }
    this.#turns = kept;
    return { ids: turns.map((turn) => turn.id), changed };
  }

  /** Whether the exchange log (at `logRevision`) changed after `since` (always without it). */
  logChanged(logRevision: number, since: number | undefined): boolean {
    if (this.#log.mark !== logRevision) this.#log = { mark: logRevision, revision: ++this.#revision };
    return since === undefined || this.#log.revision > since;
  }
}
