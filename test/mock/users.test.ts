import { beforeEach, describe, expect, it } from 'vitest';
import { type ConvoMock, createMock } from '../../src/mock/index.js';
import { call, outcome, TOKENS } from './helpers.js';

let mock: ConvoMock;
beforeEach(() => {
  mock = createMock({ tokens: TOKENS });
});

const ids = (data: unknown) => (data as Array<{ id: number }>).map((user) => user.id);

describe('4.1 GET /users (the source of shared_user_ids; shape not shown: the mock reading)', () => {
  it('4.1 lists the users of the credential company, each { id }, in the list envelope of 2.1', async () => {
    const reply = await call(mock, 'GET', '/api/v1/users');
    expect(reply.body).toEqual({
      status: 'success',
      message: 'OK',
      message_code: 'api_v1_ok',
      data: [{ id: 1 }, { id: 2 }, { id: 3 }],
      meta: { request_id: expect.any(String), page: 1, size: 50, total: 3 },
    });
  });

  it('4.1 the ids listed are exactly those shared_user_ids accepts (7.2: same company)', async () => {
    const listed = ids((await call(mock, 'GET', '/api/v1/users', { token: 'other-co' })).body.data);
    const share = (userIds: number[]) =>
      call(mock, 'POST', '/api/v1/skills', {
        token: 'other-co',
        body: { name: 'n', instructions: 'i', visibility: 'shared', shared_user_ids: userIds },
      });
    expect([listed, (await share(listed)).status, (await share([1])).status]).toEqual([[4], 201, 403]);
  });

  it('4 pages with page and size like every list; a bad size is 422', async () => {
    const second = await call(mock, 'GET', '/api/v1/users?page=2&size=2');
    expect([ids(second.body.data), second.body.meta.total]).toEqual([[3], 3]);
    expect(outcome(await call(mock, 'GET', '/api/v1/users?size=0'))).toEqual([
      422,
      'api_v1_validation_error',
    ]);
  });

  it('5 a valid credential is needed (401), but no scope: the contract names none for it', async () => {
    expect(outcome(await call(mock, 'GET', '/api/v1/users', { token: null }))).toEqual([
      401,
      'api_v1_unauthorized',
    ]);
    expect((await call(mock, 'GET', '/api/v1/users', { token: 'no-scope' })).status).toBe(200);
  });

  it('4.1 only GET is served: other methods are 404 like an unknown path', async () => {
    expect(outcome(await call(mock, 'POST', '/api/v1/users', { body: {} }))).toEqual([
      404,
      'api_v1_not_found',
    ]);
  });
});
