import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import type { FakeModel } from '../../src/mock/index.js';
import { fetchTarget } from '../support/mock-targets.js';

/** Bugs this suite found in the stream reader and the transport, fixed; each test keeps it fixed. */
describe('found by the reliability suite', () => {
  it('4.4, 6 steps already shown are not shown again after a recovery through the replay of the key', async () => {
    // src/stream/map.ts deduped a step event by its raw data, but a replay (4.4) carries all stored steps
    // in one message.step: the reasoning and tool steps came again, merged. Steps are now deduped one by one.
    const target = await fetchTarget();
    target.mock.faults.add({ route: 'stream', cutAfterEvents: 4 });
    const stream = target.client().turns.stream(crypto.randomUUID(), {
      content: '[[mock:tool_approval]] [[mock:words n=5]]',
      permission_mode: 'auto',
    });
    const steps: string[] = [];
    for await (const event of stream)
      if (event.type === 'step') steps.push(...event.steps.map((step) => step.key));
    expect(steps).toEqual(['reasoning', 'tool']);
  });

  it('4.3 a body JSON cannot hold (a BigInt in metadata) is a ValidationError before sending, not a retried ConnectionError', async () => {
    // The first failure was the JSON.stringify inside Transport#send (src/http/transport.ts), which
    // fetchFailure mapped to a ConnectionError, repeated as a lost connection. The body is now checked
    // (bodies are closed: an unknown field is refused by name) and serialized before sending.
    const target = await fetchTarget();
    const error = await target
      .client()
      .turns.send(crypto.randomUUID(), { content: 'x', metadata: { n: 10n } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('metadata');
    expect(target.requests).toHaveLength(0);
  });

  it('4.5 an elicitation field named __proto__ reaches the model as a field, and the answer is accepted', async () => {
    // The answer's schema used to be a zod record, which rebuilds the object by assignment: "__proto__"
    // then set a prototype instead of a field, and the mock refused a valid answer as missing it.
    const target = await fetchTarget();
    const model: FakeModel = async function* () {
      const answer = yield {
        type: 'interaction',
        kind: 'elicitation',
        payload: {
          message: 'Which field?',
          mode: 'form',
          requested_schema: {
            type: 'object',
            // Parsed, not a literal: `{ __proto__: … }` in code would set a prototype, not a property.
            properties: JSON.parse('{"__proto__":{"type":"string"}}'),
            required: ['__proto__'],
          },
        },
      };
      yield { type: 'text', text: JSON.stringify(answer?.kind === 'elicitation' ? answer.content : null) };
    };
    target.mock.setModel(model);
    const content = JSON.parse('{"__proto__":"a field like any other"}');
    const turn = await target
      .client()
      .turns.run(
        crypto.randomUUID(),
        { content: 'x' },
        { onElicitation: () => ({ action: 'accept', content }) },
      );
    expect(turn.content).toBe('{"__proto__":"a field like any other"}');
  });
});
