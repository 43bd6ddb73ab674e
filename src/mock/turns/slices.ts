/**
 * How a turn shares the event loop: a model's actions are mostly synchronous work chained by promises,
 * which never lets the loop reach its I/O, so a turn of 100,000 deltas would hold every other request
 * until it ends. The engine calls `slice()` after each action; once `SLICE_MS` of work has passed it
 * waits for a macrotask, during which other requests are read and answered.
 */

/** The longest stretch of a turn's work between two chances for other requests to run, in ms. */
const SLICE_MS = 4;

/** A function to await after each unit of work: resolves at once, or after a macrotask once a slice ran out. */
export function slicer(sliceMs = SLICE_MS): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await macrotask();
    since = performance.now();
  };
}

/**
 * Resolves in a later turn of the event loop, after pending I/O. A MessageChannel rather than
 * `setImmediate` or `setTimeout`: it exists in Node and browsers alike, and fake timers (vitest, sinon)
 * leave it real, so a test that freezes time does not freeze the turn. The channel is closed once used,
 * so that it keeps no process alive.
 */
function macrotask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(undefined);
  });
}
