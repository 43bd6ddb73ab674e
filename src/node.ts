// The entry Node, Deno and Bun load (the package's `node` condition): the public API, plus zod's compiler
// for response schemas that validate long lists (./http/hot-schema.ts).
import { useSchemaCompiler } from './http/hot-schema.js';

useSchemaCompiler(async () => (await import('./http/zod-compile.js')).compile);

export * from './index.js';
