// The entry Node, Deno and Bun load (the package's `node` condition): the public API, plus zod's compiler
// for response schemas that validate long lists (./http/hot-schema.ts) and the JSON Schema validator of
// elicitation answers (both loaded by their first use; a bundle adds the validator only when asked).
import { jsonSchemaValidator, useElicitationValidator } from './contract/elicitation.js';
import { useSchemaCompiler } from './http/hot-schema.js';

useSchemaCompiler(async () => (await import('./http/zod-compile.js')).compile);
useElicitationValidator(jsonSchemaValidator);

export * from './index.js';
