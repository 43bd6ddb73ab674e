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
          const json = type?.startsWith('application/json') ? await response.clone().json() : undefined;
          const problem = answerProblem(
            request.method,
            new URL(request.url).pathname,
            response.status,
            type,
            json,
          );
          if (problem) problems.push(problem);
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

afterEach(() => {
  const found = takeAnswerProblems();
  if (found.length > 0) throw new Error(`the mock answered outside openapi.json:\n${found.join('\n')}`);
});
