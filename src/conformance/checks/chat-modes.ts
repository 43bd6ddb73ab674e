import { expectStatus } from '../context.js';
import { expectThat, show } from '../verdict.js';
import { chatOf, createChat } from './chats.js';
import type { Check } from './check.js';

/** Section 4.2: the permission mode a chat is created with, and keeps. */
export const CHAT_MODE_CHECKS: Check[] = [
  {
    section: '4.2',
    title: 'a chat created without permission_mode is manual; one created with auto is auto',
    quote: '`permission_mode` (`manual` default, or `auto`)',
    async run(ctx) {
      const plain = await createChat(ctx, 'default mode');
      expectThat(
        plain.permission_mode === 'manual',
        'permission_mode "manual" when the body names none',
        () => `permission_mode ${show(plain.permission_mode)}`,
        plain.answer,
      );
      const name = ctx.name('auto mode');
      const answer = await ctx.wire.call('POST', '/api/v1/chats', {
        token: ctx.tokens.main,
        body: { name, permission_mode: 'auto' },
      });
      await ctx.created('chat', answer, name);
      const auto = chatOf(answer);
      expectThat(
        auto.permission_mode === 'auto',
        'permission_mode "auto" as the body names it',
        () => `permission_mode ${show(auto.permission_mode)}`,
        answer,
      );
    },
  },
  {
    section: '4.2',
    title: "a chat's permission mode is not editable: an update naming it is refused or leaves it as it was",
    quote: 'The model and permission mode are not editable here; they travel per turn.',
    async run(ctx) {
      const chat = await createChat(ctx, 'fixed mode');
      const patched = await ctx.wire.call('PATCH', `/api/v1/chats/${chat.id}`, {
        token: ctx.tokens.main,
        body: { permission_mode: chat.permission_mode === 'auto' ? 'manual' : 'auto' },
      });
      if (patched.status >= 400 && patched.status <= 499) return;
      expectStatus(patched, 200);
      const read = await ctx.wire.call('GET', `/api/v1/chats/${chat.id}`, { token: ctx.tokens.main });
      expectStatus(read, 200);
      const now = chatOf(read).permission_mode;
      expectThat(
        now === chat.permission_mode,
        `permission_mode still ${show(chat.permission_mode)}`,
        () => `permission_mode ${show(now)}`,
        read,
      );
    },
  },
];
