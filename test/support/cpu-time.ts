/**
 * Runs `work` and returns its result with the CPU time this thread spent meanwhile, in ms: what a bound on
 * an algorithm's cost (linear, not quadratic; refused, not backtracking) is checked against. Unlike a clock,
 * it does not grow when other processes share the machine (they take cycles, not add them to this thread),
 * nor with what other threads or the test runner's process do.
 */
export async function cpuTimeOf<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const before = process.threadCpuUsage();
  const result = await work();
  const { user, system } = process.threadCpuUsage(before);
  return { result, ms: (user + system) / 1000 };
}
