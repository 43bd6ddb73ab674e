/**
 * Type-level tests of the events table (6), checked by `npm run typecheck` (tsc over test/): the decoded
 * union and the stream's handlers are derived from `EVENTS`, so an event added to the table flows through
 * typed, or fails to compile where its handler is missing. Nothing here runs.
 */
import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod/mini';
import type { EVENTS, EventName, EventPayloads, TerminalEventName } from '../../src/contract/events.js';
import type * as root from '../../src/index.js';
import type { Decoded, HandlersOf, KnownEventOf, PayloadsOf } from '../../src/stream/decode.js';
import type { EVENT_TYPES, StreamEvent, TerminalEvent } from '../../src/stream/events.js';

const NewPayloadSchema = z.looseObject({ level: z.number() });
/** The contract's table with one more event. */
type Grown = typeof EVENTS & { 'message.new': { schema: typeof NewPayloadSchema; terminal: false } };
/** What the stream's handlers are: one per event, taking the payload and the output list. */
type Handlers<T extends typeof EVENTS> = HandlersOf<T, [out: unknown[]], boolean>;

describe('6: the events table drives decoding and handling', () => {
  it('decodes every event of the table with its schema’s payload', () => {
    expectTypeOf<Extract<Decoded, { name: 'message.start' }>['payload']>().toEqualTypeOf<
      z.infer<(typeof EVENTS)['message.start']['schema']>
    >();
    expectTypeOf<Extract<Decoded, { name: EventName }>['name']>().toEqualTypeOf<EventName>();
  });

  it('an event added to the table is decoded typed', () => {
    expectTypeOf<Extract<KnownEventOf<Grown>, { name: 'message.new' }>['payload']>().toEqualTypeOf<
      z.infer<typeof NewPayloadSchema>
    >();
  });

  it('an event added to the table without a handler does not compile', () => {
    const today = {} as Handlers<typeof EVENTS>;
    // @ts-expect-error the handlers of today's table lack `message.new`
    const grown: Handlers<Grown> = today;
    const handled: Handlers<Grown> = { ...today, 'message.new': ({ level }) => level > 0 };
    expectTypeOf(grown).toEqualTypeOf(handled);
  });

  it('a handler is typed by its event’s payload', () => {
    expectTypeOf<Parameters<Handlers<typeof EVENTS>['message.error']>[0]>().toEqualTypeOf<
      EventPayloads['message.error']
    >();
  });

  it('the terminal events are the table’s, and the stream’s terminal events follow them', () => {
    expectTypeOf<TerminalEventName>().toEqualTypeOf<
      'message.completed' | 'message.cancelled' | 'message.error'
    >();
    expectTypeOf<TerminalEvent['type']>().toEqualTypeOf<'completed' | 'cancelled' | 'error'>();
  });

  it('the root exports each event’s payload, derived from the table', () => {
    expectTypeOf<root.EventPayloads>().toEqualTypeOf<{
      [K in EventName]: PayloadsOf<typeof EVENTS>[K];
    }>();
    expectTypeOf<root.EventPayloads['message.start']>().toEqualTypeOf<
      z.infer<(typeof EVENTS)['message.start']['schema']>
    >();
  });

  it('each event is shown with a type of its own: its name after `message.`', () => {
    expectTypeOf<typeof EVENT_TYPES>().toEqualTypeOf<{
      readonly [K in EventName]: K extends `message.${infer T}` ? T : K;
    }>();
  });

  it('an event added to the table without the type it is shown with does not compile', () => {
    const today = {} as typeof EVENT_TYPES;
    // @ts-expect-error the table of today lacks `message.new`
    const grown: Record<EventName | 'message.new', StreamEvent<unknown>['type']> = today;
    expectTypeOf(grown).toBeObject();
  });
});
