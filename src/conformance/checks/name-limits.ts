import { LIMITS } from '../../contract/limits.js';
import type { Context } from '../context.js';
import { expectThat, show } from '../verdict.js';
import type { Answer } from '../wire.js';
import type { Check } from './check.js';
import { refusedSkill } from './skills.js';

/** Fails unless `answer` refuses (4xx) `what`: sections 4 and 8 give the limit, not the code. */
function expectRefused(answer: Answer, what: string): void {
  expectThat(
    answer.status >= 400 && answer.status <= 499,
    `a refusal (4xx) of ${what}`,
    () => `${answer.status} ${answer.code ?? show(answer.body, 200)}`,
    answer,
  );
}

/** A name of the run's, padded to `length` characters. */
const padded = (ctx: Context, length: number) => ctx.name('long ').padEnd(length, 'a');

/** Sections 4.1, 4.2 and 8: the lengths of the names and descriptions a creation takes. */
export const NAME_LIMIT_CHECKS: Check[] = [
  {
    section: '4.2',
    title: `a chat name over ${LIMITS.chatName} characters is refused on creation (4xx)`,
    quote: '`name` (string, up to 200 characters)',
    async run(ctx) {
      const name = padded(ctx, LIMITS.chatName + 1);
      const answer = await ctx.wire.call('POST', '/api/v1/chats', { token: ctx.tokens.main, body: { name } });
      // A chat it made anyway is the run's to delete, and a failure here.
      if (answer.status >= 200 && answer.status <= 299) await ctx.created('chat', answer, name);
      expectRefused(answer, `a chat name of ${LIMITS.chatName + 1} characters`);
    },
  },
  {
    section: '4.1',
    title: `a skill name over ${LIMITS.skillName} or a description over ${LIMITS.skillDescription} characters is refused (4xx)`,
    quote: 'up to 255 characters',
    async run(ctx) {
      const instructions = 'Answer briefly.';
      const long = await refusedSkill(ctx, { name: padded(ctx, LIMITS.skillName + 1), instructions });
      expectRefused(long, `a skill name of ${LIMITS.skillName + 1} characters`);
      const description = 'a'.repeat(LIMITS.skillDescription + 1);
      const described = await refusedSkill(ctx, {
        name: ctx.name('long description'),
        instructions,
        description,
      });
      expectRefused(described, `a skill description of ${LIMITS.skillDescription + 1} characters`);
    },
  },
];
