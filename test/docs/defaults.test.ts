import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_DEFAULTS } from '../../src/http/defaults.js';

const root = join(import.meta.dirname, '..', '..');

/** The "Defaults" table of docs/client.md as `CLIENT_DEFAULTS` key -> the number its cell starts with. */
function readmeDefaults(): Record<string, number> {
  const guide = readFileSync(join(root, 'docs', 'client.md'), 'utf8');
  const table = guide.slice(guide.indexOf('| option | default |')).split('\n\n')[0]!;
  return Object.fromEntries(
    table
      .split('\n')
      .slice(2)
      .map((row) => {
        const [name, value] = row
          .split('|')
          .slice(1, 3)
          .map((cell) => cell.trim());
        // `retryDelay.min` is the option; `retryDelayMin` its key.
        const key = name!.match(/`([\w.]+)`/)![1]!.replace(/\.(\w)/, (_, c: string) => c.toUpperCase());
        return [key, Number(value!.match(/^[\d,]+/)![0].replaceAll(',', ''))];
      }),
  );
}

describe('the client defaults, written once', () => {
  it("the client guide's Defaults table lists every default with the value the code uses", () => {
    expect(readmeDefaults()).toEqual({ ...CLIENT_DEFAULTS });
  });

  it('the TSDoc of ClientOptions quotes the same values', () => {
    const source = readFileSync(join(root, 'src', 'client.ts'), 'utf8');
    const n = (value: number) => value.toLocaleString('en-US');
    for (const quoted of [
      `(default ${n(CLIENT_DEFAULTS.timeout)};`,
      `(default ${CLIENT_DEFAULTS.maxRetries})`,
      `(default ${n(CLIENT_DEFAULTS.retryDelayMin)} to ${n(CLIENT_DEFAULTS.retryDelayMax)})`,
      `(default ${n(CLIENT_DEFAULTS.maxRetryAfter)})`,
      `(default ${CLIENT_DEFAULTS.maxResponseBytes / 2 ** 20} MiB)`,
      `(default ${CLIENT_DEFAULTS.maxTurnBytes / 2 ** 20} MiB)`,
    ])
      expect(source).toContain(quoted);
  });

  it("the TSDoc of a stream's options quotes the same idleTimeout, maxResumes and maxTurnBytes", () => {
    const read = (file: string) =>
      readFileSync(join(root, 'src', 'turn', file), 'utf8').replace(/\s+\*\s+/g, ' ');
    const idle = CLIENT_DEFAULTS.idleTimeout.toLocaleString('en-US');
    expect(read('open.ts')).toContain(`(default ${idle} ms`);
    expect(read('open.ts')).toContain(`(default ${CLIENT_DEFAULTS.maxResumes})`);
    expect(read('relayed-stream.ts')).toContain(`(default ${idle} ms)`);
    const turnMiB = CLIENT_DEFAULTS.maxTurnBytes / 2 ** 20;
    expect(read('open.ts')).toContain(`(default the client's, else ${turnMiB} MiB)`);
    expect(read('relayed-stream.ts')).toContain(`(default ${turnMiB} MiB)`);
  });
});
