import type { Catalog } from '../../../contract/catalog.js';
import { PERMISSION_MODES } from '../../../contract/chat.js';
import { canSeeSkill, canUseConnector, canUseLibrary } from '../../state/access.js';
import type { MockStore } from '../../state/store.js';
import { success } from '../../wire/respond.js';
import type { Handlers } from '../handler.js';

/**
 * `GET /api/v1/chat/catalog` (2.5). Models are the COMPLETION ones only; each of `libraries`, `skills` and
 * `connectors` lists what the credential may attach, and is absent (not empty) without its scope.
 */
export function catalogHandlers(store: MockStore) {
  return {
    'chats.catalog': (c) => {
      const credential = c.get('credential');
      const { fixtures } = store;
      const catalog: Catalog = {
        models: fixtures.models
          .filter((model) => model.type === 'COMPLETION')
          .map(({ id, name, code, type }) => ({ id, name, code, type })),
        permission_modes: [...PERMISSION_MODES],
      };
      if (credential.scopes.includes('libraries:read')) {
        catalog.libraries = fixtures.libraries
          .filter((library) => canUseLibrary(fixtures, credential, library.id))
          .map(({ id, name }) => ({ id, name }));
      }
      if (credential.scopes.includes('skills:read')) {
        catalog.skills = [...store.skillsById.values()]
          .filter((skill) => canSeeSkill(credential, skill))
          .sort((a, b) => a.id - b.id)
          .map(({ id, name }) => ({ id, name }));
      }
      if (credential.scopes.includes('connectors:use')) {
        catalog.connectors = fixtures.connectors
          .filter((connector) => canUseConnector(fixtures, credential, connector.id))
          .map(({ id, name, display_name }) => ({ id, name, display_name }));
      }
      return success(catalog);
    },
  } satisfies Partial<Handlers>;
}
