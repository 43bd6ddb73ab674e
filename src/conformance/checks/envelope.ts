import { expectStatus } from '../context.js';
import { expectThat } from '../verdict.js';
import type { EnvelopeProblem } from '../wire.js';
import type { Check } from './check.js';

const describe = (problems: EnvelopeProblem[]) =>
  `${problems[0]!.call}: ${problems[0]!.problem}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`;

/** Section 2.1, over every answer of the run: these come last, after the other checks sent their requests. */
export const ENVELOPE_CHECKS: Check[] = [
  {
    section: '2.1',
    title:
      'every successful answer is the envelope: status "success", message_code "api_v1_ok", data, meta.request_id',
    quote: '`api_v1_ok` on success',
    async run(ctx) {
      expectStatus(await ctx.wire.call('GET', '/api/v1/chat/catalog', { token: ctx.tokens.main }), 200);
      const problems = ctx.wire.envelopeProblems;
      expectThat(
        problems.length === 0,
        `the envelope on all ${ctx.wire.successes} successful answers`,
        () => describe(problems),
        problems[0],
      );
    },
  },
  {
    section: '2.1',
    title: 'every list answer carries meta.page, meta.size and meta.total',
    quote: 'only on lists',
    async run(ctx) {
      for (const path of ['/api/v1/skills', '/api/v1/chats']) {
        expectStatus(await ctx.wire.call('GET', path, { token: ctx.tokens.main, list: true }), 200);
      }
      const problems = ctx.wire.listProblems;
      expectThat(
        problems.length === 0,
        `meta.page, size and total on all ${ctx.wire.lists} list answers`,
        () => describe(problems),
        problems[0],
      );
    },
  },
  {
    section: '2.1',
    title: 'no answer that is not a list carries meta.page, meta.size or meta.total',
    quote: '`meta.page` | integer | only on lists',
    async run(ctx) {
      const problems = ctx.wire.nonListProblems;
      expectThat(
        problems.length === 0,
        `no meta.page, size or total on the ${ctx.wire.successes - ctx.wire.lists} successful answers that are not lists`,
        () => describe(problems),
        problems[0],
      );
    },
  },
];
