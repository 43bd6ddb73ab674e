/**
 * Reads an environment variable where the runtime has `process.env` (Node, Bun, Deno); `undefined` elsewhere,
 * and where reading it is refused (Deno without `--allow-env` throws).
 */
export function readEnv(name: string): string | undefined {
  try {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    const value = env?.[name]?.trim();
    return value ? value : undefined;
  } catch {
    return undefined;
  }
}
