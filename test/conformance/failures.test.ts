import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/conformance/checks/index.js';
import { contractFailures, failureKey, NOT_EXERCISED, notExercised } from '../../src/conformance/failures.js';

// Every failure of the contract ENDPOINT_DOCS lists for an endpoint is provoked by a check, or named in the
// report with the reason no check can (a scripted model, an outage, a limit not given): never silently unexercised.
const exercised = CHECKS.flatMap((check) => check.exercises ?? []);
const documented = contractFailures();

describe('the conformance kit and the failures of ENDPOINT_DOCS', () => {
  it('4, 7 each failure of the contract is exercised by a check or named as not exercised, and not both', () => {
    const named = Object.keys(NOT_EXERCISED);
    expect([...new Set([...exercised, ...named])].sort()).toEqual([...documented.keys()].sort());
    expect(exercised.filter((key) => named.includes(key))).toEqual([]);
    expect(new Set(exercised).size).toBe(exercised.length);
  });

  it("4 reads only the contract's failures: the mock's readings of its gaps are not the service's to answer", () => {
    for (const failure of documented.values()) expect(failure.source).toBe('contract');
    expect(documented.has('skills.list 401 api_v1_unauthorized')).toBe(false);
    expect(documented.has('turns.send 422 api_v1_content_too_long')).toBe(true);
    expect(documented.has('turns.stream 422 api_v1_content_too_long')).toBe(false);
  });

  it('7 the report names each failure not exercised once per section, code and reason, with its endpoints', () => {
    const lines = notExercised();
    expect(lines).toContainEqual({
      section: '7.5',
      title:
        '409 api_v1_action_not_pending (actions.approveTool, actions.respondPlan, actions.respondElicitation, actions.cancelAuth)',
      reason: 'needs a scripted model: a turn that asks, answered twice',
    });
    expect(lines).toContainEqual({
      section: '7.3',
      title: '422 api_v1_too_many_attachments (turns.send)',
      reason: 'the spec does not give the attachment limit (8)',
    });
    const named = lines.flatMap(
      (line) =>
        /\(([^)]*)\)$/
          .exec(line.title)?.[1]
          ?.split(', ')
          .map((endpoint) => `${endpoint} ${line.title.split(' ').slice(0, 2).join(' ')}`) ?? [],
    );
    expect(named.sort()).toEqual(Object.keys(NOT_EXERCISED).sort());
    // A key the table no longer lists is left out, not printed.
    expect(notExercised(new Map())).toEqual([]);
  });

  it('7 every line says why: a scripted model, an outage, or what the spec does not give', () => {
    for (const reason of Object.values(NOT_EXERCISED)) {
      expect(reason).toMatch(
        /^(needs a scripted model: |needs an outage of the service behind it: |the spec does not give )\S/,
      );
    }
    expect(notExercised()).toMatchSnapshot();
  });

  it('4 a failure key is the endpoint, the status and the code', () => {
    expect(failureKey('turns.send', { status: 409, code: 'api_v1_chat_busy' })).toBe(
      'turns.send 409 api_v1_chat_busy',
    );
  });
});
