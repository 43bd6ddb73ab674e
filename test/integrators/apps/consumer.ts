// An integrator's code, type-checked (strict) under each moduleResolution a TypeScript version supports:
// every subpath resolves to typed declarations, and a misspelled field fails to compile. Copied as .ts, .mts
// and .cts, so it must stay valid as both an ES module and a CommonJS module (no top-level await).
import { Client, NotFoundError, type Turn } from 'convo-sdk';
import { createMock } from 'convo-sdk/mock';
import { mswHandlers } from 'convo-sdk/msw';
import { SkillSchema } from 'convo-sdk/schemas';
import { setupServer } from 'msw/node';

// With skipLibCheck (as integrators have it), a declaration whose import does not resolve becomes `any`
// without a word: each line below fails to compile (an unused @ts-expect-error) if its type is `any`.
// @ts-expect-error: a number is not a Client
export const notAClient: Client = 42;
// @ts-expect-error: a number is not a mock
export const notAMock: ReturnType<typeof createMock> = 42;
// @ts-expect-error: a number is not an msw handler (msw's type, through convo-sdk/msw's declarations)
export const notAHandler: ReturnType<typeof mswHandlers>[number] = 42;
// @ts-expect-error: a number is not a skill
export const notASkill: ReturnType<typeof SkillSchema.parse> = 42;

const mock = createMock();
export const client = new Client({ baseUrl: mock.url, token: 'mock-token', fetch: mock.fetch });
export const server = setupServer(...mswHandlers(mock, { baseUrl: 'https://convo.test' }));

// @ts-expect-error: a misspelled option ("tokn") must not compile
export const typo = new Client({ baseUrl: mock.url, tokn: 'mock-token' });

export async function answer(chatId: string): Promise<string> {
  const turn: Turn = await client.turns.run(chatId, { content: 'Hello' }, { onToolApproval: () => true });
  // @ts-expect-error: a misspelled field of a result ("contnet") must not compile
  const misspelled: string = turn.contnet;
  return `${turn.content}${misspelled}`;
}

export async function skillName(id: number): Promise<string | undefined> {
  try {
    return SkillSchema.parse(await client.skills.get(id)).name;
  } catch (error) {
    if (error instanceof NotFoundError && error.code === 'api_v1_not_found') return undefined;
    throw error;
  }
}
