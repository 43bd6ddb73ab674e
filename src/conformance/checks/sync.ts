import { LIMITS } from '../../contract/limits.js';
import { TurnSchema } from '../../contract/turn.js';
import { type Context, expectStatus } from '../context.js';
import { synced, TURN_CONTENT } from '../plain-turns.js';
import { expectThat, show } from '../verdict.js';
import type { Answer } from '../wire.js';
import type { Check } from './check.js';

/** Sends a synchronous turn to a new chat of the run's with `body` and, unless `key` is false, a new key. */
function sendSync(ctx: Context, body: Record<string, unknown>, key = true): Promise<Answer> {
  const chatId = ctx.newChatId();
  return ctx.sendTo(chatId, () =>
    ctx.wire.call('POST', `/api/v1/chats/${chatId}/messages`, {
      token: ctx.tokens.main,
      body,
      ...(key ? { key: ctx.newKey() } : {}),
    }),
  );
}

/** Sections 4.3 and 7.3: the synchronous send. */
export const SYNC_CHECKS: Check[] = [
  {
    section: '4.3',
    title:
      'a synchronous turn in auto mode answers 200 with the completed turn, its metadata echoed verbatim',
    quote: 'echoed verbatim, never sent to the model; up to 2048 serialized bytes',
    async run(ctx) {
      const { answer, chatId, body } = await synced(ctx);
      const turn = TurnSchema.safeParse(answer.data);
      expectThat(
        turn.success &&
          turn.data.chat_id === chatId &&
          turn.data.role === 'assistant' &&
          turn.data.status === 'completed',
        `a completed assistant turn of chat ${chatId}`,
        () => show(answer.data),
        answer,
      );
      const metadata = (answer.data as { metadata?: unknown }).metadata;
      expectThat(
        show(metadata) === show(body.metadata),
        `metadata ${show(body.metadata)} ("echoed verbatim")`,
        () => show(metadata),
        answer,
      );
    },
  },
  {
    section: '4.3',
    title: 'the synchronous answer is a turn without prompt',
    quote: 'Response: `data` is a turn (2.4) without `prompt`.',
    async run(ctx) {
      const { answer } = await synced(ctx);
      const data = answer.data as Record<string, unknown> | undefined;
      expectThat(
        data !== undefined && data !== null && typeof data === 'object' && !('prompt' in data),
        'data without a prompt field',
        () => `prompt ${show(data?.prompt, 120)}`,
        answer,
      );
    },
  },
  {
    section: '4.3',
    title: 'a synchronous send to a chat id that does not exist creates the chat with that id',
    quote: 'If `chat_id` does not exist, the chat is created with that id.',
    async run(ctx) {
      const { chatId } = await synced(ctx);
      const read = await ctx.wire.call('GET', `/api/v1/chats/${chatId}`, { token: ctx.tokens.main });
      expectStatus(read, 200);
      const id = (read.data as { id?: unknown } | undefined)?.id;
      expectThat(id === chatId, `chat ${chatId}`, () => `chat ${show(id)}`, read);
    },
  },
  {
    section: '7.3',
    title: 'a synchronous send without Idempotency-Key is 400 api_v1_idempotency_key_required',
    quote: '`Idempotency-Key` header missing',
    exercises: ['turns.send 400 api_v1_idempotency_key_required'],
    async run(ctx) {
      const answer = await sendSync(ctx, { content: TURN_CONTENT, permission_mode: 'auto' }, false);
      expectStatus(answer, 400, 'api_v1_idempotency_key_required');
    },
  },
  {
    section: '7.3',
    title:
      'a synchronous send in manual mode, or with no permission_mode (manual by default), is 409 api_v1_sync_requires_auto',
    quote: '`permission_mode` is not `auto`',
    exercises: ['turns.send 409 api_v1_sync_requires_auto'],
    async run(ctx) {
      expectStatus(
        await sendSync(ctx, { content: TURN_CONTENT, permission_mode: 'manual' }),
        409,
        'api_v1_sync_requires_auto',
      );
      expectStatus(await sendSync(ctx, { content: TURN_CONTENT }), 409, 'api_v1_sync_requires_auto');
    },
  },
  {
    section: '7.3',
    title: `content over ${LIMITS.turnContent.toLocaleString('en')} characters is 422 api_v1_content_too_long`,
    quote: '`content` over 64,000 characters',
    exercises: ['turns.send 422 api_v1_content_too_long'],
    async run(ctx) {
      const content = 'a'.repeat(LIMITS.turnContent + 1);
      expectStatus(await sendSync(ctx, { content, permission_mode: 'auto' }), 422, 'api_v1_content_too_long');
    },
  },
  {
    section: '8',
    title: `metadata over ${LIMITS.turnMetadataBytes} serialized bytes is refused (4xx)`,
    quote: '2048 serialized bytes',
    async run(ctx) {
      const metadata = { run: ctx.prefix, pad: 'a'.repeat(LIMITS.turnMetadataBytes) };
      const answer = await sendSync(ctx, { content: TURN_CONTENT, permission_mode: 'auto', metadata });
      expectThat(
        answer.status >= 400 && answer.status <= 499,
        `a refusal (4xx) of metadata over ${LIMITS.turnMetadataBytes} serialized bytes`,
        () => `${answer.status} ${answer.code ?? show(answer.body, 200)}`,
        answer,
      );
    },
  },
];
