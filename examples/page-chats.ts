// Paging through every chat: `for await` reads page after page; a page alone is one request.
import { Client } from 'convo-sdk';

const client = new Client();
for (const name of ['Planning', 'Research', 'Support']) await client.chats.create({ name });

const first = await client.chats.list({ size: 2 });
console.log(
  `page ${first.page}: ${first.items.length} of ${first.total} chats, more: ${first.hasNextPage()}`,
);

let count = 0;
for await (const chat of client.chats.list({ size: 2 })) {
  count++;
  console.log(`${count}. ${chat.name ?? '(untitled)'}${chat.is_favorite ? ' *' : ''}`);
}
console.log(`${count} chats in all`);
