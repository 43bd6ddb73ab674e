import type { MockStore } from '../../state/store.js';
import { success } from '../../wire/respond.js';
import type { Handlers } from '../handler.js';
import { paginate } from '../paging.js';

/**
 * `GET /api/v1/users`: 4.1 names it as the source of `shared_user_ids` but shows
 * neither its shape nor its scope, so the mock serves the least a share picker needs: the users of the
 * credential's company (those `shared_user_ids` accepts), as `{ id }` by id, in the list envelope with
 * `page` and `size` (section 4). Any valid credential may call it: the contract names no scope for it.
 */
export function userHandlers(store: MockStore) {
  return {
    'users.list': (c) => {
      const { companyId } = c.get('credential');
      const colleagues = store.fixtures.users
        .filter((user) => user.companyId === companyId)
        .map(({ id }) => ({ id }))
        .sort((a, b) => a.id - b.id);
      const { items, meta } = paginate(colleagues, new URL(c.req.url).searchParams);
      return success(items, { page: meta });
    },
  } satisfies Partial<Handlers>;
}
