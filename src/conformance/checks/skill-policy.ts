import { expectStatus } from '../context.js';
import type { Check } from './check.js';
import { refusedSkill } from './skills.js';

/** A user id no company holds: sharing with it is sharing outside the credential's company. */
const STRANGER = 2_147_483_000;

/** Section 7.2: the two refusals of a skill creation by the credential's reach (section 5). */
export const SKILL_POLICY_CHECKS: Check[] = [
  {
    section: '7.2',
    title: 'a skill shared with a user outside the company is 403 api_v1_resource_not_allowed',
    quote: '`workspace_id` or a `shared_user_ids` entry is outside the scope (create)',
    async run(ctx) {
      const answer = await refusedSkill(ctx, {
        name: ctx.name('shared with a stranger'),
        instructions: 'Answer briefly.',
        visibility: 'shared',
        shared_user_ids: [STRANGER],
      });
      expectStatus(answer, 403, 'api_v1_resource_not_allowed');
    },
  },
  {
    section: '7.2',
    title:
      'a credential restricted to an allowlist of skills creating one is 403 api_v1_resource_policy_create_denied',
    quote: 'credential allowlist forbids creating new resources of this type (create)',
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
