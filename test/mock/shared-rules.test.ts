import { describe, expect, it } from 'vitest';
import { ApiError, Client, type Interaction, jsonSchemaValidator, ValidationError } from '../../src/index.js';
import { createMock } from '../../src/mock/index.js';
import { act, errorDataOf, outcome } from './helpers.js';

/**
 * The rules both sides check are written once in contract/: the client's ValidationError (before sending)
 * and the mock's 422 `api_v1_validation_error` (for the same body sent raw) name the same fields with the
 * same text.
 */

const mock = createMock();
const settings = { baseUrl: mock.url, token: 'mock-token', fetch: mock.fetch, maxRetries: 0 };
/** A client with the JSON Schema check of elicitation answers (the Node entry's default). */
const client = new Client({ ...settings, elicitationValidator: jsonSchemaValidator });
/** A client as a bundle builds it by default: no JSON Schema validator, the service checks the schema. */
let answers = 0;
const bundled = new Client({
  ...settings,
  fetch: (input, init) => {
    if (String(input instanceof Request ? input.url : input).includes('/actions/')) answers++;
    return mock.fetch(input, init);
  },
});

/** Opens a manual turn of `content` and returns its first interaction (the turn stays paused on it). */
async function interactionOf(chatId: string, content: string, by = client): Promise<Interaction> {
  for await (const event of by.turns.stream(chatId, { content })) {
    if (event.type === 'action_required') return event.interaction;
  }
  throw new Error('no interaction');
}

/** The issues of the client's ValidationError, or a failure. */
async function clientIssues(attempt: () => Promise<unknown>) {
  const error = await attempt().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).issues;
}

/** The issues of the mock's 422 for `body` sent raw to `endpoint`. */
async function mockIssues(
  chatId: string,
  endpoint: Parameters<typeof act>[2],
  body: Record<string, unknown>,
) {
  const reply = await act(mock, chatId, endpoint, body);
  expect(outcome(reply)).toEqual([422, 'api_v1_validation_error']);
  return errorDataOf(reply);
}

describe('4.5 one contract, both sides', () => {
  it('4.5 tool decisions: an unknown tool and a missing decision, same fields and text on both sides', async () => {
    const chatId = crypto.randomUUID();
    const interaction = await interactionOf(chatId, '[[mock:tool_approval]]');
    if (interaction.kind !== 'tool_approval') throw new Error(interaction.kind);
    const ours = await clientIssues(async () => interaction.decide({ toolu_9: true }));
    const theirs = await mockIssues(chatId, 'approve-tool', {
      action_id: interaction.action_id,
      decisions: [{ tool_use_id: 'toolu_9', approved: true }],
    });
    expect(ours).toEqual([
      { field: 'decisions.0.tool_use_id', message: '"toolu_9" is not a tool this interaction asked for' },
      { field: 'decisions', message: 'has no decision for tool "toolu_1"' },
    ]);
    expect(theirs).toEqual(ours);
    await interaction.rejectAll();
  });

  it('4.5 elicitation: a missing required field, a wrong type and a nested value, same fields and text on both sides', async () => {
    const chatId = crypto.randomUUID();
    const interaction = await interactionOf(chatId, '[[mock:elicitation]]');
    if (interaction.kind !== 'elicitation') throw new Error(interaction.kind);
    const cases: Array<Record<string, unknown>> = [{}, { email: 5 }, { email: 'a@b.c', extra: { x: 1 } }];
    for (const content of cases) {
      const ours = await clientIssues(() => interaction.accept(content as never));
      const theirs = await mockIssues(chatId, 'respond-elicitation', {
        action_id: interaction.action_id,
        action: 'accept',
        content,
      });
      expect(theirs, JSON.stringify(content)).toEqual(ours);
    }
    expect(await interaction.check({})).toEqual([{ field: 'content.email', message: 'is required' }]);
    expect(await interaction.check({ email: 5 })).toEqual([
      { field: 'content.email', message: 'must be of type string' },
    ]);
    expect(await interaction.check({ email: 'a@b.c', extra: { x: 1 } })).toEqual([
      { field: 'content.extra', message: 'must be a string, number, boolean or null (content is flat)' },
    ]);
    await interaction.cancel();
  });

  it('4.5 elicitation without a JSON Schema validator: the shape is checked before sending, the schema by the service with the same issues', async () => {
    const chatId = crypto.randomUUID();
    const interaction = await interactionOf(chatId, '[[mock:elicitation]]', bundled);
    if (interaction.kind !== 'elicitation') throw new Error(interaction.kind);
    const nested = { email: 'a@b.c', extra: { x: 1 } };
    const flat = [
      { field: 'content.extra', message: 'must be a string, number, boolean or null (content is flat)' },
    ];
    expect(await interaction.check(nested)).toEqual(flat);
    expect(await interaction.check({})).toEqual([]); // the schema is the service's to check here
    const before = answers;
    expect(await clientIssues(() => interaction.accept(nested as never))).toEqual(flat);
    expect(answers).toBe(before); // refused before sending
    const refused = await interaction.accept({} as never).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(answers).toBe(before + 1);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('api_v1_validation_error');
    expect((refused as ApiError).data).toEqual([{ field: 'content.email', message: 'is required' }]);
    await interaction.cancel();
  });
});
