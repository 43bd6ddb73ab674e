// npm run demo: the SDK against the embedded reference mock, over real HTTP, with no configuration.
import { Client } from 'convo-sdk';
import { startMockServer } from 'convo-sdk/mock';

const server = await startMockServer({ port: 0 });
console.log(`reference mock listening on ${server.url}\n`);

const client = new Client({ baseUrl: server.url, token: 'mock-token' });

try {
  const skill = await client.skills.create({
    name: 'Concise answers',
    description: 'Keeps replies short',
    instructions: 'Answer in at most three sentences. Cite {{library:1}} when it helps.',
  });
  console.log('created  ', skill);

  const page = await client.skills.list();
  console.log(`listed    ${page.total} skill(s):`, page.items.map((s) => `#${s.id} ${s.name}`).join(', '));

  const toggled = await client.skills.toggle(skill.id);
  console.log(`toggled   #${toggled.id} is_active: ${skill.is_active} -> ${toggled.is_active}`);

  const deleted = await client.skills.delete(skill.id);
  console.log('deleted  ', deleted);
} finally {
  await server.close();
}
