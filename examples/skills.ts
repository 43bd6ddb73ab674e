// The skills lifecycle: create, read, update, toggle, list, delete.
import { Client } from 'convo-sdk';

const client = new Client();

const skill = await client.skills.create({
  name: 'Release notes',
  description: 'Writes release notes in our house style',
  instructions: 'Group changes by Added, Changed, Fixed. Cite {{library:1}} for the style guide.',
});
console.log(`created #${skill.id} (${skill.level}, ${skill.visibility}, active: ${skill.is_active})`);

await client.skills.update(skill.id, { description: 'House-style release notes' });
const toggled = await client.skills.toggle(skill.id);
console.log(`toggled: active ${toggled.is_active}`);

for await (const each of client.skills.list()) console.log(`- #${each.id} ${each.name}: ${each.description}`);

console.log('deleted', await client.skills.delete(skill.id));
