import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/openapi.js';

// What openapi-typescript makes of the document against the SDK's own types, both ways: a value of either
// type is a value of the other (a response the document allows is one the SDK types; a body the SDK takes
// is one the document allows, and the reverse). Checked by tsc over a generated file in a temp directory.
const root = join(import.meta.dirname, '..', '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const dir = mkdtempSync(join(tmpdir(), 'convo-openapi-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const contract = (file: string) => JSON.stringify(join(root, 'src', 'contract', `${file}.js`));

/**
 * Each pair: the SDK's type, the document's schema, and how they compare: `same` both ways; `omit` a field
 * the client fills in itself; `narrower` where the document's type is the narrower one (every value it
 * allows the SDK's type allows, not the reverse, which the client checks at run time instead).
 */
const PAIRS: ReadonlyArray<[sdk: string, schema: string, how?: { omit: string } | 'narrower']> = [
  ['Skill', 'Skill'],
  ['SkillDeleted', 'SkillDeleted'],
  ['Chat', 'Chat'],
  ['ChatDeleted', 'ChatDeleted'],
  ['Turn', 'Turn'],
  ['Message', 'Message'],
  ['Catalog', 'Catalog'],
  ['ActionResult', 'ActionResult'],
  ['CancelResult', 'CancelResult'],
  ['ToolApprovalPayload', 'ToolApprovalPayload'],
  ['PlanApprovalPayload', 'PlanApprovalPayload'],
  ['ElicitationPayload', 'ElicitationPayload'],
  ['TurnFailure', 'ErrorEvent'],
  ['SkillCreate', 'SkillsCreateBody'],
  ['SkillUpdate', 'SkillsUpdateBody'],
  ['ChatCreate', 'ChatsCreateBody'],
  ['ChatUpdate', 'ChatsUpdateBody'],
  // The client always sends permission_mode auto on this channel, so its type leaves it out.
  ['TurnSend', 'TurnsSendBody', { omit: 'permission_mode' }],
  ['TurnStreamBody', 'TurnsStreamBody'],
  ['CancelBody', 'TurnsCancelBody'],
  ['ApproveToolBody', 'ActionsApproveToolBody'],
  ['RespondPlanBody', 'ActionsRespondPlanBody'],
  // The document's two shapes say "content with accept"; the SDK's one type leaves that to its body check.
  ['RespondElicitationBody', 'ActionsRespondElicitationBody', 'narrower'],
  ['CancelAuthBody', 'ActionsCancelAuthBody'],
];

/**
 * The document with its objects' known fields only: an open response object (fields a newer service adds,
 * section 9) becomes an index signature, which the SDK's interfaces leave out on purpose.
 */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node).filter(
    ([key, value]) =>
      !(key === 'additionalProperties' && 'properties' in node && JSON.stringify(value) === '{}'),
  );
  return Object.fromEntries(entries.map(([key, value]) => [key, closed(value)]));
}

const CHECK = `import type { components } from './openapi.js';
import type { Catalog } from ${contract('catalog')};
import type { Chat, ChatCreate, ChatDeleted, ChatUpdate } from ${contract('chat')};
import type { TurnFailure } from ${contract('events')};
import type {
  ActionResult, ApproveToolBody, CancelAuthBody, CancelBody, CancelResult, ElicitationPayload,
  PlanApprovalPayload, RespondElicitationBody, RespondPlanBody, ToolApprovalPayload,
} from ${contract('interactions')};
import type { Skill, SkillCreate, SkillDeleted, SkillUpdate } from ${contract('skill')};
import type { Message, Turn, TurnSend, TurnStreamBody } from ${contract('turn')};

type Schemas = components['schemas'];
type Body<N extends keyof components['requestBodies']> = components['requestBodies'][N]['content']['application/json'];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : 'document to SDK') : 'SDK to document';
declare function same<T extends true>(): T;
type Narrower<A, B> = [B] extends [A] ? true : 'document to SDK';
${PAIRS.map(([sdk, name, how]) => {
  const schema = name.endsWith('Body') ? `Body<'${name}'>` : `Schemas['${name}']`;
  return how === 'narrower'
    ? `same<Narrower<${sdk}, ${schema}>>();`
    : how
      ? `same<Same<${sdk}, Omit<${schema}, '${how.omit}'>>>();`
      : `same<Same<${sdk}, ${schema}>>();`;
}).join('\n')}
`;

describe('openapi-typescript types of the document', () => {
  it('agree with the SDK’s request and response types both ways', async () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    // openapi-typescript's default flags: a field with a default stays optional in a request body.
    const ast = await openapiTS(closed(openApiDocument(version)) as never);
    writeFileSync(join(dir, 'openapi.ts'), astToString(ast));
    writeFileSync(join(dir, 'check.ts'), CHECK);
    // exactOptionalPropertyTypes off: JSON has no undefined, so `x?: T | undefined` and `x?: T` say the same.
    const config = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        lib: ['ES2023', 'DOM'],
        types: [],
        skipLibCheck: true,
      },
      files: ['check.ts'],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')]).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(result).toBe('');
  });
});
