// The child side of a measured process (bench/lib/child.ts forks it): answers each command from the parent
// with its handler's figures; `end` answers, then disconnects. Plain JavaScript, so that a child written in
// it loads no TypeScript.

/**
 * @param {Record<string, (arg: unknown) => unknown>} handlers
 * @param {Record<string, unknown>} [ready] what the ready message carries besides `ready: 1`
 */
export function serveParent(handlers, ready = {}) {
  process.on('disconnect', () => process.exit(0));
  process.on('message', async ({ command, arg }) => {
    const handler = handlers[command];
    if (!handler) throw new Error(`unknown command ${command}`);
    process.send(await handler(arg));
    if (command === 'end') process.disconnect();
  });
  process.send({ ready: 1, ...ready });
}
