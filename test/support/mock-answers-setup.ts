import { afterEach, vi } from 'vitest';
import type * as Service from '../../src/mock/http/service.js';
import { answerProblem } from './openapi-answers.js';

// Every answer the in-process mock gives in the test suite, checked against the OpenAPI document (status,
// content type, the JSON body's schema): a test whose exchanges break it fails, naming the request. An
// answer shaped by a fault the test injected is exempt, and so is a stream's body (read by the test alone:
// a second reader would hold it open); its status and content type are checked.
const problems: string[] = [];

vi.mock('../../src/mock/http/service.js', async (importOriginal) => {
  const original = await importOriginal<typeof Service>();
  return {
    ...original,
    createMockService: (options: Service.MockServiceOptions): Service.MockService => {
      const service = original.createMockService(options);
      return {
        ...service,
        handle: async (request) => {
          const response = await service.handle(request);
          if (response.type === 'error' || options.faults.usedBy(request).length > 0) return response;
          const type = response.headers.get('content-type');
          const path = new URL(request.url).pathname;
          try {
            const json = type?.startsWith('application/json') ? await response.clone().json() : undefined;
            const problem = answerProblem(request.method, path, response.status, type, wellFormed(json));
            if (problem) problems.push(problem);
          } catch (error) {
            problems.push(`${request.method} ${path} -> ${response.status}: not checked: ${error}`);
          }
          return response;
        },
      };
    },
  };
});

/** The problems found since the last call, taken: for the test that proves this hook catches one. */
export function takeAnswerProblems(): string[] {
  return problems.splice(0);
}

/**
 * `value` with every string and key well-formed (a lone surrogate as U+FFFD): the validator cannot name the
 * location of a key holding one, and no schema of the document tells them apart.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const fixed = (text: string) => text.replace(LONE_SURROGATE, '\uFFFD');
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return fixed(value);
  if (Array.isArray(value)) return value.map(wellFormed);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [fixed(key), wellFormed(inner)]));
}

afterEach(() => {
  const found = takeAnswerProblems();
  if (found.length > 0) throw new Error(`the mock answered outside openapi.json:\n${found.join('\n')}`);
});
