// Seeded randomness, in plain JavaScript so that the processes measuring the shared workloads load no
// TypeScript (benchmarks 11 and 13): mulberry32 (the shared harness's generator), a seeded shuffle, seeded
// cuts of a body into chunks, and a body that hands out its chunks one per pull.

/**
 * mulberry32: the same sequence for the same seed, on every machine.
 * @param {number} seed
 * @returns {() => number} the next number in [0, 1)
 */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Fisher-Yates, seeded, in place.
 * @template T
 * @param {T[]} list
 * @param {() => number} next
 * @returns {T[]} the same list, shuffled
 */
export function shuffle(list, next) {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

/**
 * Cuts `bytes` into chunks of 1 to `max` bytes drawn from mulberry32 seeded `seed` (views, no copies).
 * @param {Uint8Array} bytes
 * @param {number} seed
 * @param {number} [max]
 * @returns {Uint8Array[]}
 */
export function cut(bytes, seed, max = 4096) {
  const next = random(seed);
  const chunks = [];
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + Math.floor(next() * max);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

/**
 * A body that hands out `chunks` one per pull, as a network body would.
 * @param {Uint8Array[]} chunks
 * @param {(index: number) => void} [onPull]
 * @returns {ReadableStream<Uint8Array>}
 */
export function bodyOf(chunks, onPull) {
  let index = 0;
  return new ReadableStream(
    {
      pull(controller) {
        onPull?.(index);
        if (index < chunks.length) controller.enqueue(chunks[index++]);
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}
