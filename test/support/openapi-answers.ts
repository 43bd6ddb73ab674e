import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { openApiDocument } from '../../scripts/openapi.js';

type Json = Record<string, unknown>;

/** The OpenAPI document as the build writes it, made once per test file, when first needed. */
let cached: (Json & { paths: Record<string, Record<string, Json>> }) | undefined;
export function openApi(): Json & { paths: Record<string, Record<string, Json>> } {
  const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'));
  cached ??= openApiDocument(version) as typeof cached & object;
  return cached;
}

/** `{ $ref: '#/components/schemas/X' }` replaced by X, all the way down (the schemas have no cycles). */
export function deref(node: unknown, doc: Json = openApi()): unknown {
  if (Array.isArray(node)) return node.map((item) => deref(item, doc));
  if (typeof node !== 'object' || node === null) return node;
  const ref = (node as { $ref?: string }).$ref;
  if (ref) return deref((doc.components as { schemas: Json }).schemas[ref.split('/').at(-1)!], doc);
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, deref(value, doc)]));
}

/** The document's operation for a method and a concrete path, with its template; undefined when none. */
export function operationOf(method: string, path: string): { template: string; op: Json } | undefined {
  const { paths } = openApi();
  const template = Object.keys(paths).find((candidate) =>
    new RegExp(`^${candidate.replace(/\{[a-z_]+\}/g, '[^/]+')}$`).test(path),
  );
  const op = template ? paths[template]?.[method.toLowerCase()] : undefined;
  return template && op ? { template, op } : undefined;
}

const validators = new Map<string, Validator>();

/**
 * What is wrong with `body` as the answer `status` of `method path` with content type `type`, by the
 * document (status documented, media type, body schema); undefined when it fits. A path the document does
 * not have is not judged (an unknown route, a preflight). `body` undefined: a stream, its type alone judged.
 */
export function answerProblem(
  method: string,
  path: string,
  status: number,
  type: string | null,
  body: unknown,
): string | undefined {
  const found = operationOf(method, path);
  if (!found) return undefined;
  const where = `${method} ${path} -> ${status}`;
  const documented = (found.op.responses as Record<string, { content: Json }>)[String(status)];
  if (!documented) return `${where}: status not documented for ${method} ${found.template}`;
  const media = (type ?? '').split(';')[0]!.trim();
  const content = documented.content[media] as Json | undefined;
  if (!content) return `${where}: content type ${media || '(none)'} not documented`;
  if (body === undefined) return undefined;
  const id = `${method} ${found.template} ${status} ${media}`;
  let validator = validators.get(id);
  if (!validator) {
    validator = new Validator(deref(content.schema) as never, '2020-12', false);
    validators.set(id, validator);
  }
  const { errors } = validator.validate(body);
  if (errors.length === 0) return undefined;
  const why = errors
    .filter((error) => !error.keyword.startsWith('$ref') && error.keyword !== 'properties')
    .slice(0, 3)
    .map((error) => `${error.instanceLocation}: ${error.error}`);
  return `${where}: ${why.join('; ')} in ${JSON.stringify(body).slice(0, 300)}`;
}
