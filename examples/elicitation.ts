// A connector asks for input: answer it from a form-like object, checked against its JSON Schema first.
// Node, Deno and Bun check the schema by default; a browser or worker bundle adds the check with
// `new Client({ elicitationValidator: jsonSchemaValidator })`, else the service checks it (a 422).
import { Client, ValidationError } from 'convo-sdk';

const client = new Client();
const form = { email: 'ada@example.com' }; // what your UI collected

const turn = await client.turns.run(
  crypto.randomUUID(),
  { content: 'Subscribe me to the newsletter. [[mock:elicitation]]' },
  {
    onElicitation: async (request) => {
      console.log(`asked: ${request.payload.message}`);
      const problems = await request.check(form); // the same check accept() makes before sending
      if (problems.length > 0) {
        console.log('cannot answer:', problems.map((p) => `${p.field} ${p.message}`).join('; '));
        return { action: 'decline' };
      }
      return { action: 'accept', content: form };
    },
  },
);
console.log(`${turn.status}: ${turn.content}`);

// Bad content never leaves the process: accept() throws a ValidationError naming the field.
try {
  await client.turns.run(
    crypto.randomUUID(),
    { content: '[[mock:elicitation]]' },
    {
      onElicitation: () => ({ action: 'accept', content: { name: 'no email here' } }),
    },
  );
} catch (error) {
  if (error instanceof ValidationError) console.log(`refused before sending: ${error.message}`);
  else throw error;
}
