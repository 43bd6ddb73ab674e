import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

// The built package loaded through `import` and `require` in one Node process (test/package/identity-probe.mjs):
// two builds, two copies of every class, one answer to `instanceof`.
const root = join(import.meta.dirname, '..', '..');

interface Probe {
  distinct: boolean;
  classes: string[];
  cjsClasses: string[];
  esmToCjs: string[];
  cjsToEsm: string[];
  thrown: Record<string, boolean>;
}

let probe: Probe;

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts', 'dist.mjs'), 'check'], { stdio: 'pipe' });
  const out = execFileSync(process.execPath, [join(import.meta.dirname, 'identity-probe.mjs')], {
    encoding: 'utf8',
  });
  probe = JSON.parse(out) as Probe;
});

describe('one class per error across ESM and CommonJS (dist)', () => {
  it('the two builds have their own classes, the same ones by name', () => {
    expect(probe.distinct).toBe(true);
    expect(probe.classes.length).toBeGreaterThan(20);
    expect(probe.cjsClasses.sort()).toEqual([...probe.classes].sort());
  });

  it('each exported error class of one build answers instanceof for the other build as for its own, both ways', () => {
    expect(probe.esmToCjs).toEqual([]);
    expect(probe.cjsToEsm).toEqual([]);
  });

  it("7 a client's 404 from one build is the other build's NotFoundError, and not its ConflictError", () => {
    expect(probe.thrown).toMatchObject({
      esmErrorIsCjsNotFound: true,
      cjsErrorIsEsmNotFound: true,
      esmErrorIsCjsConflict: false,
    });
  });

  it("convo-sdk/ai's errors, from either build, are the root entry's classes in the other build", () => {
    expect(probe.thrown).toMatchObject({
      aiEsmIsCjsValidation: true,
      aiCjsIsEsmValidation: true,
      aiCjsIsEsmApiError: false,
    });
  });
});
