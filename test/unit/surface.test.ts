import { describe, expect, it } from 'vitest';
import * as errors from '../../src/errors/index.js';
import * as root from '../../src/index.js';
import * as mock from '../../src/mock/index.js';
import * as schemas from '../../src/schemas.js';

// Recovered inside the turn (a resume with the key), never handed to the caller.
const RECOVERED = ['StreamBreak'];

const isErrorClass = (value: unknown): boolean =>
  typeof value === 'function' && value.prototype instanceof Error;

describe('the public surface', () => {
  it('the root exports every error class the SDK throws', () => {
    const thrown = Object.entries(errors)
      .filter(([name, value]) => isErrorClass(value) && !RECOVERED.includes(name))
      .map(([name]) => name);
    expect(thrown.length).toBeGreaterThan(20);
    expect(thrown.filter((name) => !(name in root))).toEqual([]);
  });

  it('at run time the root holds the client, the error classes, the classes its signatures name and the guides’ helpers, nothing else', () => {
    const others = Object.entries(root)
      .filter(([, value]) => !isErrorClass(value))
      .map(([name]) => name);
    expect(others.sort()).toEqual([
      'Actions',
      'ApiPromise',
      'AuthRequired',
      'Chats',
      'Client',
      'Elicitation',
      'EventStream',
      'Page',
      'PagePromise',
      'PlanApproval',
      'RelayedTurnStream',
      'Skills',
      'ToolApproval',
      'TurnStream',
      'Turns',
      'UnknownInteraction',
      'consoleLogger',
      'isTerminal',
      'jsonSchemaValidator',
    ]);
  });

  it('convo-sdk/schemas holds the contract as data: schemas, enumerations, limits and how they count', () => {
    const names = Object.keys(schemas);
    expect(
      names.filter((name) => !/Schema$|^EVENT_SCHEMAS$|^ERROR_DATA_SCHEMAS$|^EVENTS$/.test(name)).sort(),
    ).toEqual([
      'ATTACHMENT_SCOPES',
      'EVENT_NAMES',
      'INTERACTION_KINDS',
      'KNOWN_CODES',
      'LIMITS',
      'PERMISSION_MODES',
      'SCOPES',
      'SKILL_LEVELS',
      'SKILL_VISIBILITIES',
      'TURN_STATUSES',
      'charCount',
    ]);
    expect(names.filter((name) => name in root)).toEqual([]);
  });

  it('a name exported by both convo-sdk and convo-sdk/mock means one thing: the same value', () => {
    const shared = Object.keys(mock).filter((name) => name in root);
    for (const name of shared) {
      expect((mock as Record<string, unknown>)[name], name).toBe((root as Record<string, unknown>)[name]);
    }
  });

  it('5 the 401 of a missing or unknown credential is a known code', () => {
    expect(schemas.KNOWN_CODES).toContain('api_v1_unauthorized');
  });
});
