import { Uuid } from '../../contract/checks.js';
import { EVENT_SCHEMAS, isTerminalEvent as isTerminal } from '../../contract/events.js';
import { MessageSchema } from '../../contract/turn.js';
import { eventNames, expectStatus } from '../context.js';
import { streamed } from '../plain-turns.js';
import { expectThat, show } from '../verdict.js';
import type { Check } from './check.js';

/** The text the deltas before the terminal event fold to: a suffix each, or with `replace` the whole text (6). */
function foldDeltas(events: ReadonlyArray<{ event: string; data: unknown }>): string {
  let text = '';
  for (const { event, data } of events) {
    // What comes after the terminal event is not part of the turn (rule 1 reports it).
    if (isTerminal(event)) break;
    if (event !== 'message.delta') continue;
    // A malformed delta folds to nothing here: the payload check reports it.
    const delta = (typeof data === 'object' ? data : undefined) as {
      text?: unknown;
      replace?: unknown;
    } | null;
    if (typeof delta?.text !== 'string') continue;
    text = delta.replace === true ? delta.text : text + delta.text;
  }
  return text;
}

/** Section 6 (and 4.4): a plain streamed turn's events. */
export const STREAM_CHECKS: Check[] = [
  {
    section: '6',
    title: 'message.start comes first, with the chat id, a message id and a uuid request id',
    quote: 'always, and always first',
    async run(ctx) {
      const { answer, chatId } = await streamed(ctx);
      const [first] = answer.events;
      expectThat(
        first?.event === 'message.start',
        'message.start as the first event',
        () => `${first?.event ?? 'no event'} first (events: ${show(eventNames(answer))})`,
        answer,
      );
      const start = EVENT_SCHEMAS['message.start'].safeParse(first.data);
      expectThat(
        start.success && start.data.chat_id === chatId && Uuid.safeParse(start.data.request_id).success,
        `a payload { chat_id: "${chatId}", message_id (integer), request_id (uuid) }`,
        () => show(first.data),
        answer,
      );
    },
  },
  {
    section: '6',
    title: 'rule 1: exactly one terminal event, and nothing after it',
    quote:
      'Exactly one terminal event arrives per turn, after the turn is saved; nothing is emitted afterwards.',
    async run(ctx) {
      const { answer } = await streamed(ctx);
      const names = eventNames(answer);
      const terminals = names.filter(isTerminal);
      expectThat(terminals.length === 1, 'one terminal event', () => show(names), answer);
      const after = names.slice(names.findIndex(isTerminal) + 1);
      expectThat(after.length === 0, 'no event after the terminal one', () => show(after), answer);
      expectThat(
        terminals[0] === 'message.completed',
        'a plain turn ending message.completed',
        () => show(answer.events.at(-1)),
        answer,
      );
    },
  },
  {
    section: '6',
    title: "every event's payload matches its schema",
    quote: 'They are a public contract, independent of internal platform events.',
    async run(ctx) {
      const { answer } = await streamed(ctx);
      for (const { event, data } of answer.events) {
        const schema = EVENT_SCHEMAS[event as keyof typeof EVENT_SCHEMAS];
        if (!schema) continue;
        const parsed = schema.safeParse(data);
        expectThat(parsed.success, `a ${event} payload as section 6 gives it`, () => show(data), answer);
      }
    },
  },
  {
    section: '6',
    title: 'the deltas fold to the content of message.completed and of the saved turn in the message listing',
    quote: 'with `replace` false, `text` is a new suffix',
    async run(ctx) {
      const { answer, chatId, body } = await streamed(ctx);
      const folded = foldDeltas(answer.events);
      const completed = answer.events.find((event) => event.event === 'message.completed')?.data as
        | { id?: unknown; content?: unknown }
        | undefined;
      expectThat(
        show((completed as { metadata?: unknown } | undefined)?.metadata) === show(body.metadata),
        `message.completed metadata ${show(body.metadata)} (2.4: "echoed verbatim")`,
        () => show((completed as { metadata?: unknown } | undefined)?.metadata),
        answer,
      );
      expectThat(
        completed?.content === folded,
        `message.completed content equal to the folded deltas ${show(folded, 120)}`,
        () => show(completed?.content, 120),
        answer,
      );
      const list = await ctx.wire.call('GET', `/api/v1/chats/${chatId}/messages`, {
        token: ctx.tokens.main,
        list: true,
      });
      expectStatus(list, 200);
      const items = Array.isArray(list.data) ? list.data : [];
      const saved = items.find((item: { id?: unknown }) => item.id === completed?.id);
      const parsed = MessageSchema.safeParse(saved);
      expectThat(
        parsed.success &&
          parsed.data.content === folded &&
          parsed.data.prompt === body.content &&
          parsed.data.status === 'completed',
        `turn ${show(completed?.id)} listed, completed, with its prompt and the folded content`,
        () => show(saved ?? items),
        list,
      );
    },
  },
  {
    section: '3.4',
    title: 'sending a turn to a chat id that does not exist creates the chat with that id',
    quote: 'Sending a turn to a `chat_id` that does not exist creates the chat with that id.',
    async run(ctx) {
      const { chatId } = await streamed(ctx);
      const read = await ctx.wire.call('GET', `/api/v1/chats/${chatId}`, { token: ctx.tokens.main });
      expectStatus(read, 200);
    },
  },
];
