import { expect } from 'vitest';
import { apiError } from '../support/api-error.js';
import { type Case, runOnTargets } from './run-targets.js';

const cases: Case[] = [
  [
    '4.6 cancel is idempotent: the action_id of a resolved interaction, or of a finished turn, answers 200 cancelled false',
    async (t) => {
      const chatId = crypto.randomUUID();
      let actionId = '';
      await t.client().turns.run(
        chatId,
        { content: '[[mock:plan_approval]]' },
        {
          onPlanApproval: (plan) => {
            actionId = plan.action_id;
            return 'approve';
          },
        },
      );
      expect(await t.client().turns.cancel(chatId, { action_id: actionId })).toEqual({
        chat_id: chatId,
        cancelled: false,
      });
      const unknown = await apiError(t.client().turns.cancel(chatId, { action_id: 'act_unknown' }));
      expect([unknown.status, unknown.code]).toEqual([404, 'api_v1_action_not_found']);
    },
  ],
  [
    'conventions: a CORS preflight allows whatever request headers it asks for',
    async (t) => {
      const reply = await t.raw('/api/v1/chats', {
        method: 'OPTIONS',
        token: null,
        headers: {
          origin: 'http://page.test',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type,idempotency-key,x-app',
        },
      });
      expect(reply.status).toBeLessThan(300);
      expect(reply.headers.get('access-control-allow-headers')?.toLowerCase()).toMatch(/\*|x-app/);
    },
  ],
  [
    '6 upstream_error has retryable false, and its details do not say retry',
    async (t) => {
      const stream = t
        .client()
        .turns.stream(crypto.randomUUID(), { content: '[[mock:error code=upstream_error]]' });
      const error = (await stream.finalTurn().catch((e: unknown) => e)) as {
        retryable: boolean;
        details?: { retryable?: boolean; retry_action?: string };
      };
      expect(error.retryable).toBe(false);
      expect(error.details?.retryable).toBe(false);
      expect(error.details?.retry_action).not.toBe('retry');
    },
  ],
];

runOnTargets('contract corrections', cases);
