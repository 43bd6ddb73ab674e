import type { StreamEvent } from '../turns/event-log.js';
import type { MalformedKind } from './faults.js';

/**
 * How a `malformed` fault damages a stream. Each kind changes one thing and leaves the turn's own events
 * whole, so that a client that tolerates the damage still gets the full answer:
 * - `bom`: the body starts with a UTF-8 byte order mark;
 * - `crlf` / `cr`: lines end with CRLF / CR instead of LF;
 * - `comments`: a `: comment` line before every event;
 * - `not-json`, `no-data`, `unknown-event`, `huge-event`: one extra event right after `message.start`:
 *   a `message.delta` whose data is not JSON, a `message.delta` without a data line, an event named
 *   `message.unknown`, a `ping` carrying a 1 MiB `padding` field;
 * - `second-terminal`: the terminal event twice; `after-terminal`: a `message.delta` after it.
 */
export interface Damage {
  /** Written before anything else. */
  prefix: string;
  /** Line terminator. */
  eol: string;
  /** Written before each event. */
  beforeEvent: string;
  /** Extra text right after `message.start`. */
  afterStart: string;
  /** Extra text right after the terminal event. */
  afterTerminal(terminal: StreamEvent): string;
}

/** Size of the `padding` of a `huge-event`: 1 MiB. */
export const HUGE_EVENT_PADDING = 1024 * 1024;

/** The damage of `kind`; none when undefined. */
export function damageOf(kind: MalformedKind | undefined): Damage {
  const eol = kind === 'crlf' ? '\r\n' : kind === 'cr' ? '\r' : '\n';
  const raw = (lines: string[]) => lines.map((line) => `${line}${eol}`).join('') + eol;
  return {
    prefix: kind === 'bom' ? '\uFEFF' : '',
    eol,
    beforeEvent: kind === 'comments' ? `: mock comment${eol}` : '',
    afterStart:
      kind === 'not-json'
        ? raw(['event: message.delta', 'data: {not json'])
        : kind === 'no-data'
          ? raw(['event: message.delta'])
          : kind === 'unknown-event'
            ? raw(['event: message.unknown', 'data: {"note":"an event this version does not know"}'])
            : kind === 'huge-event'
              ? raw([
                  'event: ping',
                  `data: ${JSON.stringify({ ts: 0, padding: 'x'.repeat(HUGE_EVENT_PADDING) })}`,
                ])
              : '',
    afterTerminal: (terminal) =>
      kind === 'second-terminal'
        ? encodeEvent(terminal, eol)
        : kind === 'after-terminal'
          ? encodeEvent({ event: 'message.delta', data: { text: ' late', replace: false } }, eol)
          : '',
  };
}

/** One event as SSE text: `event:` and `data:` lines, then a blank line. */
export function encodeEvent(event: StreamEvent, eol = '\n'): string {
  return `event: ${event.event}${eol}data: ${JSON.stringify(event.data)}${eol}${eol}`;
}
