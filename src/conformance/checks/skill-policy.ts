import { expectStatus } from '../context.js';
import { Skip } from '../verdict.js';
import type { Check } from './check.js';
import { refusedSkill } from './skills.js';

/** Section 7.2: the two refusals of a skill creation by the credential's reach (section 5). */
export const SKILL_POLICY_CHECKS: Check[] = [
  {
    section: '7.2',
    title: 'a skill shared with a user outside the company is 403 api_v1_resource_not_allowed',
    quote: '`workspace_id` or a `shared_user_ids` entry is outside the scope (create)',
    exercises: ['skills.create 403 api_v1_resource_not_allowed'],
    async run(ctx) {
      // A user of another company: an id that exists (one that does not may be refused otherwise).
      const outsider = ctx.outsideUserId;
      if (outsider === undefined) {
        throw new Skip(
          "needs the id of a user outside the credential's company: --outside-user ID or CONVO_OUTSIDE_USER_ID",
        );
      }
      const answer = await refusedSkill(ctx, {
        name: ctx.name('shared outside the company'),
        instructions: 'Answer briefly.',
        visibility: 'shared',
        shared_user_ids: [outsider],
      });
      expectStatus(answer, 403, 'api_v1_resource_not_allowed');
    },
  },
  {
    section: '7.2',
    title:
      'a credential restricted to an allowlist of skills creating one is 403 api_v1_resource_policy_create_denied',
    quote: 'credential allowlist forbids creating new resources of this type (create)',
    exercises: ['skills.create 403 api_v1_resource_policy_create_denied'],
    async run(ctx) {
      const token = ctx.token('restricted');
      const answer = await refusedSkill(
        ctx,
        { name: ctx.name('not allowed'), instructions: 'Answer briefly.' },
        token,
      );
      expectStatus(answer, 403, 'api_v1_resource_policy_create_denied');
    },
  },
];
