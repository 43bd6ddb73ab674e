import { describe, expect, it } from 'vitest';
import { fetchTarget } from '../support/mock-targets.js';

/**
 * 2.6, 5: an `action_id` is valid only for its turn and credential, so it must not be guessable: long,
 * random, and in no sequence. 256 ids raised by real interactions are checked for length, uniqueness, an
 * even spread of digits and no relation between consecutive ones.
 */

const COUNT = 256;

describe('2.6, 5 action ids are unguessable', () => {
  it('128 random bits each: unique, evenly spread hex digits, consecutive ids unrelated', async () => {
    const target = await fetchTarget();
    const client = target.client();
    // One turn raises an interaction per directive; each is approved as it comes.
    const perTurn = 32;
    for (let turn = 0; turn < COUNT / perTurn; turn++) {
      await client.turns.run(
        crypto.randomUUID(),
        { content: '[[mock:tool_approval]] '.repeat(perTurn) },
        {
          onToolApproval: () => true,
        },
      );
    }
    const ids = target.mock.store.interactions().map((interaction) => interaction.action_id);
    expect(ids).toHaveLength(COUNT);
    expect(new Set(ids).size).toBe(COUNT);
    for (const id of ids) expect(id).toMatch(/^act_[0-9a-f]{32}$/);
    const digits = ids.map((id) => id.slice(4));

    // Shannon entropy of the digits, overall: 4 bits per hex digit is the most there is.
    const counts = new Map<string, number>();
    for (const char of digits.join('')) counts.set(char, (counts.get(char) ?? 0) + 1);
    const total = COUNT * 32;
    const entropy = -[...counts.values()].reduce((sum, n) => sum + (n / total) * Math.log2(n / total), 0);
    expect(entropy).toBeGreaterThan(3.98);
    // Every position varies: no fixed prefix, counter or timestamp field.
    for (let position = 0; position < 32; position++) {
      expect(new Set(digits.map((d) => d[position])).size).toBeGreaterThanOrEqual(12);
    }
    // Consecutive ids differ in about 30 of 32 digits (15/16 each), and not by a constant step.
    const pairs = digits.slice(1).map((d, i) => [digits[i]!, d] as const);
    const hamming = pairs.map(([x, y]) => [...x].filter((c, i) => c !== y[i]).length);
    expect(hamming.reduce((a, b) => a + b, 0) / hamming.length).toBeGreaterThan(28);
    const steps = new Set(pairs.map(([x, y]) => (BigInt(`0x${y}`) - BigInt(`0x${x}`)).toString()));
    expect(steps.size).toBe(pairs.length);
    await target.close();
  });
});
