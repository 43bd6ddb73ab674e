// A contender in its own `node --expose-gc` process (its own heap, JIT and peak RSS), asked one thing at a
// time over IPC: the parent's `spawnChild`, the child's `serveParent` (bench/lib/serve-parent.mjs). Telemetry "on" is the same child
// started with bench/tools/otel-register.mjs imported first (the OpenTelemetry SDK registered globally).
import { type ChildProcess, fork } from 'node:child_process';

export { serveParent } from './serve-parent.mjs';

const OTEL_REGISTER = new URL('../tools/otel-register.mjs', import.meta.url).pathname;

/** A child's answer: figures by name. */
export type Answer = Record<string, number>;

export interface Child {
  process: ChildProcess;
  /** Sends `command` (with `arg`) and resolves with the answer; without a command, the ready message. */
  ask(command?: string, arg?: unknown): Promise<Answer>;
}

/** The environment of a measured child: no NODE_OPTIONS or compile cache of the caller's to skew it. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.NODE_COMPILE_CACHE;
  delete env.NODE_V8_COVERAGE;
  return env;
}

/**
 * Forks `script` with `args`; `telemetry` registers the OpenTelemetry SDK in it before anything runs; `gc`
 * (the default) exposes `globalThis.gc`.
 */
export function spawnChild(script: string, args: string[], telemetry = false, gc = true): Child {
  const execArgv = [...(gc ? ['--expose-gc'] : []), ...(telemetry ? ['--import', OTEL_REGISTER] : [])];
  const proc = fork(script, args, { execArgv, env: cleanEnv() });
  let waiting: { resolve: (answer: Answer) => void; reject: (error: Error) => void } | undefined;
  proc.on('message', (answer) => {
    const pending = waiting;
    waiting = undefined;
    pending?.resolve(answer as Answer);
  });
  proc.on('exit', (code) => {
    const pending = waiting;
    waiting = undefined;
    pending?.reject(new Error(`${script} ${args.join(' ')} exited (${code}) before answering`));
  });
  return {
    process: proc,
    ask: (command, arg) =>
      new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        if (command) proc.send({ command, arg });
      }),
  };
}
