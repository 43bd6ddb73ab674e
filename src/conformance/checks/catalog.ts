import { CatalogSchema } from '../../contract/catalog.js';
import { expectStatus } from '../context.js';
import { expectThat, show } from '../verdict.js';
import type { Check } from './check.js';

const BLOCKS = ['libraries', 'skills', 'connectors'] as const;

/** Section 2.5: the catalog. */
export const CATALOG_CHECKS: Check[] = [
  {
    section: '2.5',
    title:
      'the catalog lists COMPLETION models, permission modes ["manual","auto"], and the skills block to a credential that lists skills',
    quote: 'only COMPLETION models are returned',
    async run(ctx) {
      const answer = await ctx.wire.call('GET', '/api/v1/chat/catalog', { token: ctx.tokens.main });
      expectStatus(answer, 200);
      const parsed = CatalogSchema.safeParse(answer.data);
      expectThat(parsed.success, 'data matching the catalog of 2.5', () => show(answer.data), answer);
      const catalog = parsed.data;
      const other = catalog.models.filter((model) => model.type !== 'COMPLETION');
      expectThat(other.length === 0, 'only COMPLETION models', () => show(other), answer);
      expectThat(
        show(catalog.permission_modes) === '["manual","auto"]',
        'permission_modes ["manual","auto"]',
        () => show(catalog.permission_modes),
        answer,
      );
      // Whether the main credential holds libraries:read or connectors:use the run cannot tell, so their
      // blocks may be absent; skills:read it shows by listing skills.
      if (catalog.skills === undefined) {
        const skills = await ctx.wire.call('GET', '/api/v1/skills?size=1', {
          token: ctx.tokens.main,
          list: true,
        });
        expectThat(
          skills.status !== 200,
          'the skills block for a credential that lists skills (skills:read)',
          () => 'no skills block',
          answer,
        );
      }
    },
  },
  {
    section: '2.5',
    title: 'a block whose scope the credential lacks is absent, not an empty list',
    quote: 'A block whose scope the credential lacks is absent from the response (not an empty list).',
    async run(ctx) {
      const answer = await ctx.wire.call('GET', '/api/v1/chat/catalog', { token: ctx.token('limited') });
      expectStatus(answer, 200);
      const data = (answer.data ?? {}) as Record<string, unknown>;
      const present = BLOCKS.filter((block) => block in data);
      expectThat(
        present.length === 0,
        'no libraries, skills or connectors block for a chat:read credential',
        () => `${present.join(', ')}: ${show(present.map((block) => data[block]))}`,
        answer,
      );
    },
  },
];
