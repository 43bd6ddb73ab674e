import { type Context, expectStatus } from '../context.js';
import { Skip } from '../verdict.js';
import type { Answer } from '../wire.js';

/** The most pages of 200 a lookup reads: 10,000 items, then it says it could not tell. */
const MAX_PAGES = 50;
const SIZE = 200;

/** What a lookup in a list found: the item, or undefined when the list ended without it; the last page read. */
export interface Listed {
  /** The item found. */
  item: unknown;
  /** The page that held it, or the last one read. */
  answer: Answer;
}

/**
 * Pages through a list (`path`, without a query) until `match` finds an item, whatever the list's order
 * and however long it is; a list longer than `MAX_PAGES` pages without it is a skip, not a verdict.
 */
export async function findListed(
  ctx: Context,
  path: string,
  match: (item: { id?: unknown } & Record<string, unknown>) => boolean,
  token = ctx.tokens.main,
): Promise<Listed> {
  const join = path.includes('?') ? '&' : '?';
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await ctx.wire.call('GET', `${path}${join}page=${page}&size=${SIZE}`, {
      token,
      list: true,
    });
    expectStatus(answer, 200);
    const items = Array.isArray(answer.data) ? (answer.data as Array<Record<string, unknown> | null>) : [];
    const item = items.find((entry) => entry !== null && typeof entry === 'object' && match(entry));
    if (item) return { item, answer };
    const total = (answer.body as { meta?: { total?: unknown } } | undefined)?.meta?.total;
    const ended = items.length < SIZE || (typeof total === 'number' && page * SIZE >= total);
    if (ended) return { item: undefined, answer };
  }
  throw new Skip(`${path} holds more than ${MAX_PAGES * SIZE} items: the lookup could not tell`);
}

/** Matches an item by its `id`. */
export const byId =
  (id: unknown) =>
  (item: { id?: unknown }): boolean =>
    item.id === id;
