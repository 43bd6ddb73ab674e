/**
 * Type-level tests, checked by `npm run typecheck` (tsc over test/): each `@ts-expect-error` fails the
 * build if the line under it compiles, so a typo that compiles again is caught. Nothing here runs.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import type { Meta } from '../../src/contract/envelope.js';
import type {
  ActionRequiredPayload,
  ActionResult,
  ApproveToolBody,
  CancelAuthBody,
  CancelBody,
  CancelResult,
  Catalog,
  Chat,
  ChatCreate,
  ChatDeleted,
  ChatListQuery,
  ChatUpdate,
  Client,
  ClientOptions,
  ElicitationPayload,
  ErrorDetails,
  Logger,
  Message,
  PageQuery,
  PlanApprovalPayload,
  RequestOptions,
  RespondElicitationBody,
  RespondPlanBody,
  Skill,
  SkillCreate,
  SkillDeleted,
  SkillUpdate,
  Step,
  StreamOptions,
  ToolApprovalPayload,
  Turn,
  TurnFailure,
  TurnSend,
  TurnStreamBody,
  Usage,
} from '../../src/index.js';
import type * as S from '../../src/schemas.js';

/** A type with every string index signature removed, all the way down: the fields the contract names. */
type Known<T> = T extends string | number | boolean | bigint | null | undefined
  ? T
  : T extends readonly (infer U)[]
    ? Known<U>[]
    : T extends object
      ? { [K in keyof T as string extends K ? never : K]: Known<T[K]> }
      : T;

/** What a response schema yields, without the index signature of its loose objects. */
type Out<Schema extends z.ZodMiniType> = Known<z.output<Schema>>;
/** What a request schema takes. */
type In<Schema extends z.ZodMiniType> = Known<z.input<Schema>>;

describe('schemas and public types say the same (one contract, two spellings)', () => {
  it('results: each interface lists exactly the fields its schema checks', () => {
    expectTypeOf<Out<typeof S.SkillSchema>>().toEqualTypeOf<Known<Skill>>();
    expectTypeOf<Out<typeof S.SkillDeletedSchema>>().toEqualTypeOf<Known<SkillDeleted>>();
    expectTypeOf<Out<typeof S.ChatSchema>>().toEqualTypeOf<Known<Chat>>();
    expectTypeOf<Out<typeof S.ChatDeletedSchema>>().toEqualTypeOf<Known<ChatDeleted>>();
    expectTypeOf<Out<typeof S.TurnSchema>>().toEqualTypeOf<Known<Turn>>();
    expectTypeOf<Out<typeof S.MessageSchema>>().toEqualTypeOf<Known<Message>>();
    expectTypeOf<Out<typeof S.FinishedPayloadSchema>>().toEqualTypeOf<Known<Omit<Turn, 'status'>>>();
    expectTypeOf<Out<typeof S.UsageSchema>>().toEqualTypeOf<Known<Usage>>();
    expectTypeOf<Out<typeof S.StepSchema>>().toEqualTypeOf<Known<Step>>();
    expectTypeOf<Out<typeof S.CatalogSchema>>().toEqualTypeOf<Known<Catalog>>();
    expectTypeOf<Out<typeof S.ActionResultSchema>>().toEqualTypeOf<Known<ActionResult>>();
    expectTypeOf<Out<typeof S.CancelResultSchema>>().toEqualTypeOf<Known<CancelResult>>();
    expectTypeOf<Out<typeof S.MetaSchema>>().toEqualTypeOf<Known<Meta>>();
    expectTypeOf<Out<typeof S.ErrorDetailsSchema>>().toEqualTypeOf<Known<ErrorDetails>>();
    expectTypeOf<Out<typeof S.ErrorPayloadSchema>>().toEqualTypeOf<Known<TurnFailure>>();
    expectTypeOf<Out<typeof S.ActionRequiredPayloadSchema>>().toEqualTypeOf<Known<ActionRequiredPayload>>();
    expectTypeOf<Out<typeof S.ToolApprovalPayloadSchema>>().toEqualTypeOf<Known<ToolApprovalPayload>>();
    expectTypeOf<Out<typeof S.PlanApprovalPayloadSchema>>().toEqualTypeOf<Known<PlanApprovalPayload>>();
    expectTypeOf<Out<typeof S.ElicitationPayloadSchema>>().toEqualTypeOf<Known<ElicitationPayload>>();
  });

  it('request bodies: each interface takes exactly what its schema accepts', () => {
    expectTypeOf<In<typeof S.SkillCreateSchema>>().toEqualTypeOf<Known<SkillCreate>>();
    expectTypeOf<Omit<In<typeof S.SkillUpdateSchema>, 'level'>>().toEqualTypeOf<Known<SkillUpdate>>();
    expectTypeOf<In<typeof S.ChatCreateSchema>>().toEqualTypeOf<Known<ChatCreate>>();
    expectTypeOf<In<typeof S.ChatUpdateSchema>>().toEqualTypeOf<Known<ChatUpdate>>();
    expectTypeOf<In<typeof S.ChatListQuerySchema>>().toEqualTypeOf<Known<ChatListQuery>>();
    expectTypeOf<In<typeof S.PageQuerySchema>>().toEqualTypeOf<Known<PageQuery>>();
    expectTypeOf<In<typeof S.TurnSendSchema>>().toEqualTypeOf<Known<TurnSend>>();
    expectTypeOf<In<typeof S.TurnStreamBodySchema>>().toEqualTypeOf<Known<TurnStreamBody>>();
    expectTypeOf<In<typeof S.ApproveToolSchema>>().toEqualTypeOf<Known<ApproveToolBody>>();
    expectTypeOf<In<typeof S.RespondPlanSchema>>().toEqualTypeOf<Known<RespondPlanBody>>();
    expectTypeOf<In<typeof S.RespondElicitationSchema>>().toEqualTypeOf<Known<RespondElicitationBody>>();
    expectTypeOf<In<typeof S.CancelAuthSchema>>().toEqualTypeOf<Known<CancelAuthBody>>();
    expectTypeOf<In<typeof S.CancelSchema>>().toEqualTypeOf<Known<CancelBody>>();
  });

  it('request schemas are strict objects, response schemas loose ones', () => {
    expectTypeOf<z.input<typeof S.ChatCreateSchema>>().not.toHaveProperty('x');
    expectTypeOf<z.output<typeof S.ChatSchema>>().toHaveProperty('x').toEqualTypeOf<unknown>();
  });
});

/** Type-only uses of a client: never called. */
declare const client: Client;
const CHAT = '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

describe('4.1 skills: misspelled body fields and result properties do not compile', () => {
  it('bodies', () => {
    // @ts-expect-error `descriptoin` is not a field
    void client.skills.create({ name: 'a', instructions: 'b', descriptoin: 'c' });
    // @ts-expect-error `level` is fixed after creation
    void client.skills.update(1, { level: 'company' });
    // @ts-expect-error request bodies keep closed enums
    void client.skills.create({ name: 'a', instructions: 'b', visibility: 'everyone' });
    // @ts-expect-error `pgae` is not a query field
    void client.skills.list({ pgae: 2 });
  });
  it('results', async () => {
    const skill = await client.skills.get(1);
    // @ts-expect-error `nmae` is not a field of Skill
    void skill.nmae;
    const page = await client.skills.list();
    // @ts-expect-error nor of a listed one
    void page.items[0]?.instructinos;
    // @ts-expect-error a deleted skill has only its id
    void (await client.skills.delete(1)).name;
  });
});

describe('4.2 chats: misspelled body fields and result properties do not compile', () => {
  it('bodies', () => {
    // @ts-expect-error `permision_mode` is not a field
    void client.chats.create({ permision_mode: 'manual' });
    // @ts-expect-error the permission mode is not editable on a chat
    void client.chats.update(CHAT, { permission_mode: 'auto' });
    // @ts-expect-error `is_favourite` is not a query field
    void client.chats.list({ is_favourite: true });
  });
  it('results', async () => {
    const chat = await client.chats.get(CHAT);
    // @ts-expect-error `favorite` is not a field of Chat
    void chat.favorite;
    const catalog = await client.chats.catalog();
    // @ts-expect-error `model` is not a field of Catalog
    void catalog.model;
    const message = (await client.chats.messages(CHAT)).items[0];
    // @ts-expect-error `promt` is not a field of Message
    void message?.promt;
  });
});

describe('4.3 and 4.4 turns: misspelled body fields and result properties do not compile', () => {
  it('bodies', () => {
    // @ts-expect-error `metdata` is not a field
    void client.turns.send(CHAT, { content: 'x', metdata: {} });
    // @ts-expect-error the synchronous send is `auto` only
    void client.turns.send(CHAT, { content: 'x', permission_mode: 'manual' });
    // @ts-expect-error `files` is not an attachment kind
    void client.turns.stream(CHAT, { content: 'x', attachments: { files: [1] } });
    // @ts-expect-error `modelId` is not a field (the body keeps the API's names)
    void client.turns.stream(CHAT, { content: 'x', modelId: 1 });
  });
  it('results', async () => {
    const turn = await client.turns.send(CHAT, { content: 'x' });
    // @ts-expect-error `contnet` is not a field of Turn
    void turn.contnet;
    const finished = await client.turns.stream(CHAT, { content: 'x' }).finalTurn();
    // @ts-expect-error nor of a streamed one
    void finished.usgae;
  });
});

describe('4.5 and 4.6 actions: misspelled body fields and result properties do not compile', () => {
  it('bodies', () => {
    void client.actions.approveTool(CHAT, {
      action_id: 'a',
      // @ts-expect-error `approve` is not a field of a decision
      decisions: [{ tool_use_id: 't', approve: true }],
    });
    // @ts-expect-error `approved` is not a plan answer
    void client.actions.respondPlan(CHAT, { action_id: 'a', action: 'approved' });
    // @ts-expect-error `contents` is not a field
    void client.actions.respondElicitation(CHAT, { action_id: 'a', action: 'accept', contents: {} });
    // @ts-expect-error `actionId` is not a field (the body keeps the API's names)
    void client.actions.cancelAuth(CHAT, { actionId: 'a' });
    // @ts-expect-error `reason` is not a field
    void client.turns.cancel(CHAT, { reason: 'x' });
    // @ts-expect-error `actionId` is not a field (the body keeps the API's names)
    void client.turns.cancel(CHAT, { actionId: 'a' });
    // @ts-expect-error one public cancel of a turn: `client.turns.cancel`
    void client.actions.cancel(CHAT);
  });
  it('results', async () => {
    const answered = await client.actions.respondPlan(CHAT, { action_id: 'a', action: 'approve' });
    // @ts-expect-error `status` is not a field of ActionResult
    void answered.status;
    const cancelled = await client.turns.cancel(CHAT);
    // @ts-expect-error `canceled` is not a field of CancelResult
    void cancelled.canceled;
  });
});

describe('9 enums the service may extend are open in results', () => {
  it('results accept a new value, and the known ones', () => {
    expectTypeOf<'team'>().toExtend<Skill['level']>();
    expectTypeOf<'personal'>().toExtend<Skill['level']>();
    expectTypeOf<'plan'>().toExtend<Chat['permission_mode']>();
    expectTypeOf<'queued'>().toExtend<Turn['status']>();
    expectTypeOf<'system'>().toExtend<Turn['role']>();
    expectTypeOf<'new_kind'>().toExtend<ActionRequiredPayload['kind']>();
    expectTypeOf<'new_code'>().toExtend<TurnFailure['code']>();
  });
  it('request bodies keep closed enums', () => {
    expectTypeOf<'team'>().not.toExtend<NonNullable<SkillCreate['level']>>();
    expectTypeOf<'plan'>().not.toExtend<NonNullable<ChatCreate['permission_mode']>>();
  });
});

describe('strict settings: every optional option accepts undefined (exactOptionalPropertyTypes)', () => {
  it('options', () => {
    const maybe = undefined as string | undefined;
    expectTypeOf({ baseUrl: maybe, token: maybe, timeout: undefined }).toExtend<ClientOptions>();
    expectTypeOf({ signal: undefined, timeout: undefined, maxRetries: undefined }).toExtend<RequestOptions>();
    expectTypeOf({
      idempotencyKey: maybe,
      idleTimeout: undefined,
      pings: undefined,
    }).toExtend<StreamOptions>();
    expectTypeOf({ content: 'x', metadata: undefined, attachments: undefined }).toExtend<TurnStreamBody>();
    expectTypeOf({ debug: undefined, warn: console.warn }).toExtend<Logger>();
  });
  it('closed at compile time: an unknown option does not compile', () => {
    // @ts-expect-error `retries` is not an option
    const options: ClientOptions = { retries: 3 };
    void options;
  });
});
