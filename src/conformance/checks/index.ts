import { AUTH_CHECKS } from './auth.js';
import { CANCEL_CHECKS } from './cancel.js';
import { CATALOG_CHECKS } from './catalog.js';
import { CHAT_MODE_CHECKS } from './chat-modes.js';
import { CHAT_CHECKS } from './chats.js';
import type { Check } from './check.js';
import { ENVELOPE_CHECKS } from './envelope.js';
import { IDEMPOTENCY_CHECKS } from './idempotency.js';
import { MESSAGE_CHECKS } from './messages.js';
import { NAME_LIMIT_CHECKS } from './name-limits.js';
import { RUNNING_CHECKS } from './running.js';
import { SKILL_POLICY_CHECKS } from './skill-policy.js';
import { SKILL_CHECKS } from './skills.js';
import { STREAM_CHECKS } from './stream.js';
import { SYNC_CHECKS } from './sync.js';

export { type Check, expectedOf } from './check.js';

/** Every check, in the order a run takes them; the 2.1 checks last, as they read the whole run's answers. */
export const CHECKS: readonly Check[] = [
  ...AUTH_CHECKS,
  ...CATALOG_CHECKS,
  ...SKILL_CHECKS,
  ...SKILL_POLICY_CHECKS,
  ...CHAT_CHECKS,
  ...CHAT_MODE_CHECKS,
  ...NAME_LIMIT_CHECKS,
  ...STREAM_CHECKS,
  ...SYNC_CHECKS,
  ...MESSAGE_CHECKS,
  ...IDEMPOTENCY_CHECKS,
  ...CANCEL_CHECKS,
  ...RUNNING_CHECKS,
  ...ENVELOPE_CHECKS,
];
