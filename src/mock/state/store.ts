import { LIMITS } from '../../contract/limits.js';
import type { SkillLevel, SkillVisibility } from '../../contract/skill.js';
import { type MockClock, REAL_CLOCK } from '../time/clock.js';
import {
  DEFAULT_CREDENTIAL,
  isScope,
  type MockAllowlist,
  type MockCredential,
  SCOPES,
  type Scope,
} from './credentials.js';
import { companyOf, FIXTURES, type MockFixtures } from './fixtures.js';
import type { ChatRecord, InteractionRecord, KeyRecord, TurnRecord } from './records.js';

/** Tunables that do not change the contract, only how fast the mock shows it. */
export interface MockSettings {
  /** Silence before a stream `ping`, in ms (15 s in the contract). */
  pingMs: number;
  /** Lifetime of an interaction, in ms (110 s in the contract). */
  interactionTtlMs: number;
}

/** A configured credential, resolved: every default applied, its user's company known. */
export interface CredentialRecord {
  /** The mock's own id: two credentials of one user are still two owners (chats are per credential). */
  readonly id: number;
  /** The bearer token. */
  readonly token: string;
  /** Scopes granted. */
  readonly scopes: readonly Scope[];
  /** The user it acts for. */
  readonly userId: number;
  /** That user's company. */
  readonly companyId: number;
  /** The resource allowlist, if any. */
  readonly allow: Readonly<MockAllowlist>;
  /** What the inspector calls it, if it was given a name. */
  readonly name: string | undefined;
}

/** A skill as stored: the public fields of 2.2 plus what the mock keeps to itself. */
export interface SkillRecord {
  /** Identifier. */
  id: number;
  /** Name. */
  name: string;
  /** Description. */
  description: string;
  /** Instructions, possibly citing `{{type:id}}`. */
  instructions: string;
  /** Icon name. */
  icon: string;
  /** Level, fixed after creation. */
  level: SkillLevel;
  /** Visibility. */
  visibility: SkillVisibility;
  /** Owning library with level `workspace`, null otherwise. */
  workspace_id: number | null;
  /** Enabled flag. */
  is_active: boolean;
  /** Creation time, ISO 8601 UTC. */
  created_at: string;
  /** Users it is shared with; accepted on write, never shown (2.2). */
  shared_user_ids: number[];
  /** Soft-delete time, null while alive. */
  deleted_at: string | null;
  /** The credential that created it. */
  owner_credential_id: number;
  /** The user of that credential: ownership and company visibility go by user. */
  owner_user_id: number;
}

/** Read-only inspection of a mock's state, for tests: every call returns copies. */
export interface MockStoreView {
  /** Every skill ever created, soft-deleted ones included, ascending by id. */
  skills(): SkillRecord[];
  /** The configured credentials. */
  credentials(): CredentialRecord[];
  /** Every chat ever created, soft-deleted ones included, in creation order. */
  chats(): ChatRecord[];
  /** Every turn, running ones (`pending`) included, ascending by id. */
  turns(): TurnRecord[];
  /** Every interaction raised, whatever its state, in the order raised. */
  interactions(): InteractionRecord[];
  /** The interactions still awaiting an answer. */
  pendingInteractions(): InteractionRecord[];
  /** The seeded fixtures. */
  readonly fixtures: MockFixtures;
  /** The tunables in effect. */
  readonly settings: Readonly<MockSettings>;
}

/** Options of a `MockStore`. */
export interface MockStoreOptions {
  /** Credentials; `mock-token` with every scope for user 1 when absent or empty. */
  tokens?: readonly MockCredential[] | undefined;
  /** The time source; real time when absent. */
  clock?: MockClock | undefined;
  /** Tunables; contract values when absent. */
  settings?: Partial<MockSettings> | undefined;
}

/** Names of the id sequences; one per resource with integer ids. */
type Sequence = 'skill' | 'turn' | 'chat';

/**
 * The in-memory state of one mock instance. One map per resource, so that a new resource (chats, turns)
 * adds a map, its `add` method and a `reset` line, nothing else. The maps are read-only outside: the
 * state changes only through these methods. Rules about who sees what live in access.ts, not here.
 */
export class MockStore implements MockStoreView {
  /** The seeded fixtures (shared, frozen). */
  readonly fixtures: MockFixtures = FIXTURES;
  /** The tunables in effect. */
  readonly settings: Readonly<MockSettings>;
  /** The time source. */
  readonly clock: MockClock;
  readonly #skills = new Map<number, SkillRecord>();
  readonly #chats = new Map<string, ChatRecord>();
  readonly #turns = new Map<number, TurnRecord>();
  readonly #interactions = new Map<string, InteractionRecord>();
  readonly #keys = new Map<string, KeyRecord>();
  readonly #runCounts = new Map<string, number>();
  readonly #credentialsByToken: ReadonlyMap<string, CredentialRecord>;
  readonly #sequences = new Map<Sequence, number>();

  constructor(options: MockStoreOptions = {}) {
    this.clock = options.clock ?? REAL_CLOCK;
    this.settings = Object.freeze({
      pingMs: options.settings?.pingMs ?? LIMITS.pingIntervalMs,
      interactionTtlMs: options.settings?.interactionTtlMs ?? LIMITS.interactionLifetimeMs,
    });
    const tokens = options.tokens?.length ? options.tokens : [DEFAULT_CREDENTIAL];
    const byToken = new Map<string, CredentialRecord>();
    tokens.forEach((credential, index) => {
      const record = resolveCredential(credential, index + 1);
      if (byToken.has(record.token)) throw new Error(`mock: token "${record.token}" is configured twice`);
      byToken.set(record.token, record);
    });
    this.#credentialsByToken = byToken;
  }

  /** Skills by id, soft-deleted ones included. */
  get skillsById(): ReadonlyMap<number, SkillRecord> {
    return this.#skills;
  }

  /** Chats by id, soft-deleted ones included. */
  get chatsById(): ReadonlyMap<string, ChatRecord> {
    return this.#chats;
  }

  /** Turns by id. */
  get turnsById(): ReadonlyMap<number, TurnRecord> {
    return this.#turns;
  }

  /** Interactions by `action_id`. */
  get interactionsById(): ReadonlyMap<string, InteractionRecord> {
    return this.#interactions;
  }

  /** Stores a new skill. */
  addSkill(skill: SkillRecord): void {
    this.#skills.set(skill.id, skill);
  }

  /** Stores a new chat. */
  addChat(chat: ChatRecord): void {
    this.#chats.set(chat.id, chat);
  }

  /** Stores a new turn and counts a run of its key. */
  addTurn(turn: TurnRecord): void {
    this.#turns.set(turn.id, turn);
    const runs = keyId(turn.credential_id, turn.key);
    this.#runCounts.set(runs, (this.#runCounts.get(runs) ?? 0) + 1);
  }

  /** Stores a new interaction. */
  addInteraction(interaction: InteractionRecord): void {
    this.#interactions.set(interaction.action_id, interaction);
  }

  /** What `key` of credential `credentialId` is bound to, if it was used. */
  keyOf(credentialId: number, key: string): KeyRecord | undefined {
    return this.#keys.get(keyId(credentialId, key));
  }

  /** Binds a key of a credential to the turn it started. */
  bindKey(binding: KeyRecord): void {
    this.#keys.set(keyId(binding.credential_id, binding.key), binding);
  }

  /** How many times the turn of `key` of credential `credentialId` actually ran. */
  runCount(credentialId: number, key: string): number {
    return this.#runCounts.get(keyId(credentialId, key)) ?? 0;
  }

  /** The credential holding `token`, if any. */
  credentialByToken(token: string): CredentialRecord | undefined {
    return this.#credentialsByToken.get(token);
  }

  /** The next id of a sequence, from 1. */
  nextId(sequence: Sequence): number {
    const next = (this.#sequences.get(sequence) ?? 0) + 1;
    this.#sequences.set(sequence, next);
    return next;
  }

  /** The current time as an ISO 8601 UTC string. */
  timestamp(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** Back to the seeded state: no skills, chats, turns or keys, sequences from 1. Credentials and settings are kept. */
  reset(): void {
    this.#skills.clear();
    this.#chats.clear();
    this.#turns.clear();
    this.#interactions.clear();
    this.#keys.clear();
    this.#runCounts.clear();
    this.#sequences.clear();
  }

  /** Every skill, soft-deleted ones included, ascending by id (copies). */
  skills(): SkillRecord[] {
    return [...this.skillsById.values()].sort((a, b) => a.id - b.id).map((skill) => structuredClone(skill));
  }

  /** Every chat, in creation order (copies). */
  chats(): ChatRecord[] {
    return [...this.chatsById.values()].sort((a, b) => a.seq - b.seq).map((chat) => structuredClone(chat));
  }

  /** Every turn, ascending by id (copies). */
  turns(): TurnRecord[] {
    return [...this.turnsById.values()].sort((a, b) => a.id - b.id).map((turn) => structuredClone(turn));
  }

  /** Every interaction, in the order raised (copies). */
  interactions(): InteractionRecord[] {
    return [...this.interactionsById.values()].map((interaction) => structuredClone(interaction));
  }

  /** The interactions still awaiting an answer (copies). */
  pendingInteractions(): InteractionRecord[] {
    return this.interactions().filter((interaction) => interaction.state === 'pending');
  }

  /** The configured credentials (copies). */
  credentials(): CredentialRecord[] {
    return [...this.#credentialsByToken.values()].map((credential) => structuredClone(credential));
  }
}

// The map key of an `Idempotency-Key` of a credential: keys are per credential.
function keyId(credentialId: number, key: string): string {
  return `${credentialId}\u0000${key}`;
}

// Applies the defaults of MockCredential and checks what a JavaScript caller could get wrong.
function resolveCredential(credential: MockCredential, id: number): CredentialRecord {
  const { token, scopes = SCOPES, userId = 1, allow = {}, name } = credential;
  if (typeof token !== 'string' || token === '' || /\s/.test(token)) {
    throw new Error('mock: a token must be a non-empty string without spaces');
  }
  if (name !== undefined && (typeof name !== 'string' || !/^[\x20-\x7e]{1,64}$/.test(name))) {
    throw new Error('mock: a credential name must be 1 to 64 printable ASCII characters');
  }
  for (const scope of scopes) {
    if (!isScope(scope))
      throw new Error(`mock: unknown scope "${String(scope)}" (known: ${SCOPES.join(', ')})`);
  }
  const companyId = companyOf(userId);
  if (companyId === undefined) {
    throw new Error(
      `mock: unknown user ${userId} (fixture users: ${FIXTURES.users.map((u) => u.id).join(', ')})`,
    );
  }
  const frozenAllow: MockAllowlist = {};
  if (allow.skills) frozenAllow.skills = Object.freeze([...allow.skills]);
  if (allow.libraries) frozenAllow.libraries = Object.freeze([...allow.libraries]);
  return Object.freeze({
    id,
    token,
    scopes: Object.freeze([...new Set(scopes)]),
    userId,
    companyId,
    allow: Object.freeze(frozenAllow),
    name,
  });
}
