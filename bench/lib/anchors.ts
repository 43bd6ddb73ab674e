// The anchors: two widely used TypeScript SDKs of conversational AI APIs, measured side by side with ours
// on the same work (benchmarks 3, 4, 5, 9, 11, 13 and 14) for scale. Dev dependencies only: nothing in src/ or test/ uses them.
import { readFileSync } from 'node:fs';

/** An anchor package and the browser app of benchmark 4 written with it. */
export interface Anchor {
  /** npm package name. */
  name: string;
  /** Its short name in figure keys and contender names. */
  key: 'openai' | 'anthropic';
  /** Create a client, stream one request, print each event: the same app as ours, in its own API. */
  app: string;
}

export const ANCHORS: Anchor[] = [
  {
    name: 'openai',
    key: 'openai',
    app: `import OpenAI from 'openai';
const client = new OpenAI({ baseURL: 'https://api.example.com/v1', apiKey: 'token', dangerouslyAllowBrowser: true });
const stream = await client.chat.completions.create({ model: 'a-model', messages: [{ role: 'user', content: 'Hello' }], stream: true });
for await (const event of stream) console.log(event);`,
  },
  {
    name: '@anthropic-ai/sdk',
    key: 'anthropic',
    app: `import Anthropic from '@anthropic-ai/sdk';
const client = new Anthropic({ baseURL: 'https://api.example.com', apiKey: 'token', dangerouslyAllowBrowser: true });
const stream = await client.messages.create({ model: 'a-model', max_tokens: 1024, messages: [{ role: 'user', content: 'Hello' }], stream: true });
for await (const event of stream) console.log(event);`,
  },
];

/** The installed version of a package (read from its package.json: not every package exports it). */
export function versionOf(name: string): string {
  const file = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}
