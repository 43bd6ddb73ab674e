import { describe, expect, it, vi } from 'vitest';
import { elicitationIssues } from '../../src/contract/elicitation.js';
import {
  Client,
  type Elicitation,
  type ElicitationValidator,
  jsonSchemaValidator,
  type PlainIssue,
  ValidationError,
} from '../../src/index.js';
import { ok } from '../support/fake-fetch.js';
import { CHAT, finished, sseResponse, sseText, type WireEvent } from '../support/sse.js';

/**
 * Which check an elicitation answer gets before it is sent: its shape always; `requested_schema` by the
 * client's `elicitationValidator`, whose default is the entry's (a JSON Schema validator in the Node entry,
 * none in the bundler entry, where the service checks the schema).
 */

const SCHEMA = { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] };
const EVENTS: WireEvent[] = [
  ['message.start', { chat_id: CHAT, message_id: 7, request_id: 'r' }],
  [
    'message.action_required',
    {
      kind: 'elicitation',
      action_id: 'act_3',
      payload: { message: 'Your email?', mode: 'form', requested_schema: SCHEMA },
    },
  ],
  ['message.completed', finished('done')],
];

/** A client of `Client`'s class over a fake service, and the answers it sent. */
function service(ClientClass: typeof Client, validator?: ElicitationValidator) {
  const answers: unknown[] = [];
  const fetch = async (input: Request | URL | string, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.url.endsWith('/messages/stream')) return sseResponse(sseText(EVENTS));
    answers.push(JSON.parse(await request.text()));
    return ok({ action_id: 'act_3', state: 'resolved' });
  };
  const client = new ClientClass({
    baseUrl: 'https://api.test',
    token: 't',
    fetch,
    ...(validator ? { elicitationValidator: validator } : {}),
  });
  return { client, answers };
}

async function elicitationOf(client: Client): Promise<Elicitation> {
  for await (const event of client.turns.stream(CHAT, { content: 'x' })) {
    if (event.type === 'action_required' && event.interaction.kind === 'elicitation')
      return event.interaction;
  }
  throw new Error('no elicitation');
}

const REQUIRED = [{ field: 'content.email', message: 'is required' }];

describe('4.5 the elicitation validator', () => {
  it('4.5 bundler entry by default: the shape is checked, the schema is left to the service', async () => {
    const { client, answers } = service(Client);
    const interaction = await elicitationOf(client);
    expect(await interaction.check({})).toEqual([]);
    await expect(interaction.accept({ email: { nested: true } } as never)).rejects.toThrow(/flat/);
    expect(answers).toEqual([]);
    await interaction.accept({} as never);
    expect(answers).toEqual([{ action_id: 'act_3', action: 'accept', content: {} }]);
  });

  it('4.5 a caller-supplied validator gets requested_schema and the content; its issues stop the answer', async () => {
    const validate = vi.fn(async (_schema: Record<string, unknown>, content: Record<string, unknown>) =>
      'email' in content ? [] : [{ field: 'content.email', message: 'is required (mine)' }],
    );
    const { client, answers } = service(Client, validate);
    const interaction = await elicitationOf(client);
    const error = await interaction.accept({} as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      { field: 'content.email', message: 'is required (mine)' },
    ]);
    expect(validate).toHaveBeenCalledWith(SCHEMA, {});
    expect(answers).toEqual([]);
    await interaction.accept({ email: 'a@b.c' });
    expect(answers).toHaveLength(1);
  });

  it('4.5 a field that breaks flatness is named once, whatever the validator also says of it', async () => {
    const validate: ElicitationValidator = () => [
      { field: 'content.extra', message: 'is not allowed' },
      { field: 'content.email', message: 'is required' },
    ];
    const issues: PlainIssue[] = await elicitationIssues(SCHEMA, { extra: [1] }, validate);
    expect(issues).toEqual([
      { field: 'content.extra', message: 'must be a string, number, boolean or null (content is flat)' },
      { field: 'content.email', message: 'is required' },
    ]);
    expect(await elicitationIssues(SCHEMA, 'text', validate)).toEqual([
      { field: 'content', message: 'must be an object' },
    ]);
  });

  it('4.5 withOptions keeps the validator of the client it comes from', async () => {
    const validate = vi.fn<ElicitationValidator>(() => REQUIRED);
    const { client } = service(Client, validate);
    const interaction = await elicitationOf(client.withOptions({ timeout: 5_000 }));
    expect(await interaction.check({})).toEqual(REQUIRED);
    expect(validate).toHaveBeenCalledOnce();
  });

  it('4.5 jsonSchemaValidator says what each keyword expects, field first', async () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'number', minimum: 1, maximum: 5, multipleOf: 2 },
        x: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 },
        s: { type: 'string', minLength: 3, maxLength: 4, pattern: '^a' },
        t: { type: 'string', maxLength: 2 },
        e: { enum: ['x', 'y, z'] },
        c: { const: 'k' },
        m: { type: 'string', format: 'email' },
      },
    };
    const issues = async (content: Record<string, unknown>) => jsonSchemaValidator(schema, content);
    expect(await issues({ n: 0, x: 0, s: 'b', t: 'abc', e: 'w', c: 'j', m: 'nope' })).toEqual(
      expect.arrayContaining([
        { field: 'content.n', message: 'must be at least 1' },
        { field: 'content.x', message: 'must be greater than 0' },
        { field: 'content.s', message: 'must be at least 3 characters' },
        { field: 'content.s', message: 'must match the pattern /^a/' },
        { field: 'content.t', message: 'must be at most 2 characters' },
        { field: 'content.e', message: 'must be one of "x", "y, z"' },
        { field: 'content.c', message: 'must be "k"' },
        { field: 'content.m', message: 'must be in the format "email"' },
      ]),
    );
    expect(await issues({ n: 7, x: 10 })).toEqual([
      { field: 'content.n', message: 'must be at most 5' },
      { field: 'content.n', message: 'must be a multiple of 2' },
      { field: 'content.x', message: 'must be less than 10' },
    ]);
  });

  // Last: importing the Node entry installs its default for the rest of this file's module graph.
  it('4.5 Node entry by default: requested_schema is checked by the JSON Schema validator before sending', async () => {
    const node = await import('../../src/node.js');
    const { client, answers } = service(node.Client);
    const interaction = await elicitationOf(client);
    expect(await interaction.check({})).toEqual(REQUIRED);
    const error = await interaction.accept({} as never).catch((caught: unknown) => caught);
    expect((error as ValidationError).field).toBe('content.email');
    expect(answers).toEqual([]);
    expect(await elicitationIssues(SCHEMA, { email: 5 })).toEqual([
      { field: 'content.email', message: 'must be of type string' },
    ]);
  });
});
