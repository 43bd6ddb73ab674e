/** A promise and the function that resolves it (the project's lib has no `Promise.withResolvers`). */
export function signalled() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
