import { fromOpenApi } from '@mswjs/source/open-api';
import { getResponse, type RequestHandler } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/client.js';
import { failedCalls, JSON_CALLS } from '../support/client-calls.js';
import { openApi } from '../support/openapi-answers.js';

// The package's own Client against the handlers `@mswjs/source` makes from the document alone
// (`fromOpenApi`), as an integrator would mock the API without the SDK's mock: its default server URL, a
// literal example of every answer, each `const` with its `type`. The handlers answer 200 (or the
// `?response=` status) with the example of that status, so an operation that answers 201 only gets 501
// unless the request names the status; the test counts the calls that succeed.
let handlers: RequestHandler[];
let server: string;

beforeAll(async () => {
  const doc = openApi();
  server = (doc.servers as Array<{ url: string }>)[0]!.url;
  handlers = await fromOpenApi(structuredClone(doc) as never);
});

/** A Client whose requests the generated handlers answer; `query` is added to every URL. */
function clientOf(query = '') {
  const fetch = async (input: Request | URL | string, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = query ? `${request.url}${request.url.includes('?') ? '&' : '?'}${query}` : request.url;
    const response = await getResponse(handlers, new Request(url, request));
    return response ?? new Response('no handler', { status: 404 });
  };
  return new Client({ baseUrl: server, token: 'msw-source-token', maxRetries: 0, fetch });
}

describe('@mswjs/source fromOpenApi handlers of the document', () => {
  it('serve the Client on at least 17 of its 19 JSON methods; only the 201-only create is left out', async () => {
    const failures = await failedCalls(clientOf());
    const succeeded = Object.keys(JSON_CALLS).length - Object.keys(failures).length;
    expect(Object.keys(JSON_CALLS)).toHaveLength(19);
    expect(succeeded).toBeGreaterThanOrEqual(17);
    expect(Object.keys(failures)).toEqual(['skills.create']);
    expect(failures['skills.create']).toMatch(/501/);
  });

  it('4.1: the 201-only skill create is served when the request names its status (?response=201)', async () => {
    const skill = await clientOf('response=201').skills.create({ name: 'n', instructions: 'i' });
    expect(skill.id).toEqual(expect.any(Number));
  });

  it('listens at a concrete server URL, the mock’s default, with no template left', () => {
    expect(server).toBe('http://127.0.0.1:4010');
  });
});
