import { companyOf, type MockFixtures } from './fixtures.js';
import type { ChatRecord } from './records.js';
import type { CredentialRecord, SkillRecord } from './store.js';

/**
 * Who may see and use what. One place for these rules, so that the skill routes and the `{{type:id}}`
 * references and the turn attachments agree on them.
 */

/**
 * Whether `credential` sees `skill`. Section 2.2 says a credential sees "its own, the company's, and those
 * shared with the user"; the mock reads that as: alive (not soft-deleted), inside the credential's skill
 * allowlist if it has one, and
 * - owned by the credential's user (ownership is per user, not per credential, unlike chats), or
 * - of level `company`, its owner in the same company as the user, or
 * - of visibility `shared`, the user in its `shared_user_ids`.
 * A credential that sees a skill may also change it: the contract names no finer permission.
 */
export function canSeeSkill(credential: CredentialRecord, skill: SkillRecord): boolean {
  if (skill.deleted_at !== null) return false;
  if (credential.allow.skills && !credential.allow.skills.includes(skill.id)) return false;
  if (skill.owner_user_id === credential.userId) return true;
  if (skill.level === 'company' && companyOf(skill.owner_user_id) === credential.companyId) return true;
  return skill.visibility === 'shared' && skill.shared_user_ids.includes(credential.userId);
}

/** Whether `credential` may use library `id`: it exists in the user's company and passes the allowlist. */
export function canUseLibrary(fixtures: MockFixtures, credential: CredentialRecord, id: number): boolean {
  const library = fixtures.libraries.find((item) => item.id === id);
  if (!library || library.companyId !== credential.companyId) return false;
  return !credential.allow.libraries || credential.allow.libraries.includes(id);
}

/** Whether `credential` may use file `id`: it exists and its library is usable. */
export function canUseFile(fixtures: MockFixtures, credential: CredentialRecord, id: number): boolean {
  const file = fixtures.files.find((item) => item.id === id);
  return file !== undefined && canUseLibrary(fixtures, credential, file.libraryId);
}

/** Whether `credential` may use connector `id`: it exists in the user's company (connected or not). */
export function canUseConnector(fixtures: MockFixtures, credential: CredentialRecord, id: number): boolean {
  const connector = fixtures.connectors.find((item) => item.id === id);
  return connector !== undefined && connector.companyId === credential.companyId;
}

/** Whether `credential` may use tool `id`: it exists and its connector is usable. */
export function canUseTool(fixtures: MockFixtures, credential: CredentialRecord, id: number): boolean {
  const tool = fixtures.tools.find((item) => item.id === id);
  return tool !== undefined && canUseConnector(fixtures, credential, tool.connectorId);
}

/** Whether user `id` exists and belongs to the credential's company (a valid `shared_user_ids` entry). */
export function isColleague(credential: CredentialRecord, id: number): boolean {
  return companyOf(id) === credential.companyId;
}

/**
 * Whether `credential` sees `chat`: chats are per credential (section 1), so only the credential that
 * created it, and only while it is alive. Another credential of the same user does not see it.
 */
export function canSeeChat(credential: CredentialRecord, chat: ChatRecord): boolean {
  return chat.deleted_at === null && chat.owner_credential_id === credential.id;
}

/** Whether `id` is a COMPLETION model of the catalog: the only models a chat or a turn may name (2.5). */
export function isCompletionModel(fixtures: MockFixtures, id: number): boolean {
  return fixtures.models.some((model) => model.id === id && model.type === 'COMPLETION');
}
