import type { PermissionMode } from '../../contract/chat.js';
import { LIMITS } from '../../contract/limits.js';
import { charCount } from '../../contract/text.js';
import { ATTACHMENT_SCOPES, TurnSendSchema, TurnStreamBodySchema } from '../../contract/turn.js';
import type { ModelAttachments } from '../model/model.js';
import {
  canSeeSkill,
  canUseConnector,
  canUseFile,
  canUseLibrary,
  isCompletionModel,
} from '../state/access.js';
import type { TurnChannel } from '../state/records.js';
import type { CredentialRecord, MockStore } from '../state/store.js';
import { readJson, validate, validationFailure } from '../wire/input.js';
import { ApiFailure } from '../wire/respond.js';
import { checkScopes } from './auth.js';

/**
 * The mock's limit behind 422 `api_v1_too_many_attachments`: 20 ids across the four attachment lists
 * (the contract does not show the real one, section 8).
 */
export const MAX_TURN_ATTACHMENTS = 20;

/** A send request that passed every check of its own (the chat, the key and the chat's state come next). */
export interface SendInput {
  /** The `Idempotency-Key` header. */
  key: string;
  /** The body as sent: what the key's fingerprint covers. */
  body: Record<string, unknown>;
  /** The content. */
  content: string;
  /** The permission mode, `manual` when absent. */
  permission_mode: PermissionMode;
  /** The model named, if any. */
  model_id: number | undefined;
  /** The attachments, every list present. */
  attachments: ModelAttachments;
  /** The metadata as sent (not as parsed: a key such as `__proto__` stays data), null when absent. */
  metadata: Record<string, unknown> | null;
}

const LISTS = Object.keys(ATTACHMENT_SCOPES) as Array<keyof typeof ATTACHMENT_SCOPES>;

/**
 * Reads and checks what a send (4.3, 4.4) says of itself, in this order: 413/400 body; 400
 * `api_v1_idempotency_key_required`; 422 (`api_v1_content_too_long`, `api_v1_too_many_attachments`, then
 * `api_v1_validation_error`, an unknown or non-COMPLETION `model_id` included); sync only: 409
 * `api_v1_sync_requires_auto` for any `permission_mode` but `auto` (7.3); 403 `api_token_scope_not_allowed`
 * for attachments without their scope. What depends on today's state (`checkAttachmentsUsable`) comes after
 * the key: a replay is not re-checked (4.3).
 */
export async function readSend(
  store: MockStore,
  credential: CredentialRecord,
  request: Request,
  channel: TurnChannel,
): Promise<SendInput> {
  const raw = await readJson(request);
  const key = request.headers.get('idempotency-key')?.trim() ?? '';
  if (key === '') {
    throw new ApiFailure(400, 'api_v1_idempotency_key_required', 'The Idempotency-Key header is required.');
  }
  checkContentLength(raw);
  checkAttachmentCount(raw);
  // The sync schema accepts only `auto`: any other mode there (`manual`, `plan`...) is the 409 below (7.3).
  const notAuto =
    channel === 'sync' &&
    isObject(raw) &&
    typeof raw.permission_mode === 'string' &&
    raw.permission_mode !== 'auto';
  const checked =
    channel === 'sync'
      ? validate(TurnSendSchema, notAuto ? { ...raw, permission_mode: undefined } : raw)
      : validate(TurnStreamBodySchema, raw);
  const body = raw as Record<string, unknown>;
  if (checked.model_id !== undefined && !isCompletionModel(store.fixtures, checked.model_id)) {
    throw validationFailure([{ field: 'model_id', message: 'must be a COMPLETION model of the catalog' }]);
  }
  const permission_mode: PermissionMode = checked.permission_mode ?? 'manual';
  if (channel === 'sync' && permission_mode !== 'auto') {
    throw new ApiFailure(
      409,
      'api_v1_sync_requires_auto',
      'The synchronous send accepts only permission_mode "auto"; use the streaming send for "manual".',
    );
  }
  const attachments: ModelAttachments = {
    workspace_ids: [...(checked.attachments?.workspace_ids ?? [])],
    file_ids: [...(checked.attachments?.file_ids ?? [])],
    skill_ids: [...(checked.attachments?.skill_ids ?? [])],
    mcp_server_ids: [...(checked.attachments?.mcp_server_ids ?? [])],
  };
  // 5: an empty list attaches nothing, so it needs no scope.
  checkScopes(
    credential,
    LISTS.filter((list) => attachments[list].length > 0).map((list) => ATTACHMENT_SCOPES[list]),
  );
  return {
    key,
    body,
    content: checked.content,
    permission_mode,
    model_id: checked.model_id,
    attachments,
    metadata: body.metadata === undefined ? null : (body.metadata as Record<string, unknown>),
  };
}

/** 422 `api_v1_content_too_long` (7.3), before the schema so that this code wins over the generic one. */
function checkContentLength(body: unknown): void {
  if (!isObject(body) || typeof body.content !== 'string') return;
  const limit = LIMITS.turnContent;
  if (charCount(body.content) > limit) {
    throw new ApiFailure(422, 'api_v1_content_too_long', `The content exceeds ${limit} characters.`, [
      { field: 'content', message: `must be at most ${limit} characters`, limit },
    ]);
  }
}

/** 422 `api_v1_too_many_attachments` past `MAX_TURN_ATTACHMENTS` ids in total. */
function checkAttachmentCount(body: unknown): void {
  if (!isObject(body) || !isObject(body.attachments)) return;
  const { attachments } = body;
  const total = LISTS.reduce((sum, list) => {
    const ids = attachments[list];
    return sum + (Array.isArray(ids) ? ids.length : 0);
  }, 0);
  if (total > MAX_TURN_ATTACHMENTS) {
    throw new ApiFailure(
      422,
      'api_v1_too_many_attachments',
      `A turn takes at most ${MAX_TURN_ATTACHMENTS} attachments.`,
      [
        {
          field: 'attachments',
          message: `must hold at most ${MAX_TURN_ATTACHMENTS} ids in total`,
          limit: MAX_TURN_ATTACHMENTS,
        },
      ],
    );
  }
}

/**
 * 404 for the first list holding an id the credential cannot use (today: a skill deleted since is gone);
 * `data` names the list and the ids.
 */
export function checkAttachmentsUsable(
  store: MockStore,
  credential: CredentialRecord,
  attachments: ModelAttachments,
) {
  const { fixtures } = store;
  const usable: Record<keyof ModelAttachments, (id: number) => boolean> = {
    workspace_ids: (id) => canUseLibrary(fixtures, credential, id),
    file_ids: (id) => canUseFile(fixtures, credential, id),
    skill_ids: (id) => {
      const skill = store.skillsById.get(id);
      return skill !== undefined && canSeeSkill(credential, skill);
    },
    mcp_server_ids: (id) => canUseConnector(fixtures, credential, id),
  };
  for (const list of LISTS) {
    const ids = [...new Set(attachments[list].filter((id) => !usable[list](id)))];
    if (ids.length > 0) {
      throw new ApiFailure(404, 'api_v1_not_found', 'Attachment not found.', {
        field: `attachments.${list}`,
        ids,
      });
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
