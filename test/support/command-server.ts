import { type ChildProcess, execFileSync, spawn } from 'node:child_process';

/**
 * A server started from a command line, in a process group of its own. The command may be a wrapper (a
 * shell, npx, a script) that starts the real server as a child and does not pass signals on, so stopping
 * signals the whole group and waits until none of its processes is left.
 */
export interface CommandServer {
  /** The `http://HOST:PORT` the server printed once listening. */
  readonly url: string;
  /** The process group id (the pid of the process spawned for the command). */
  readonly group: number;
  /** Stops every process of the group: SIGTERM, then SIGKILL for what is still alive after a grace time. */
  stop(): Promise<void>;
}

/** How long a started command may take to print its URL. */
const START_MS = 15_000;
/** How long the group has to exit after SIGTERM before it is killed. */
const GRACE_MS = 5_000;

/** The pids of the group's processes that are still running (zombies waiting to be reaped are not). */
export function liveMembers(group: number): number[] {
  const table = execFileSync('ps', ['-A', '-o', 'pid=,pgid=,stat='], { encoding: 'utf8' });
  return table
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, pgid, stat]) => pid && Number(pgid) === group && !stat?.startsWith('Z'))
    .map(([pid]) => Number(pid));
}

/**
 * Runs `command` with `args` appended (each quoted) through `/bin/sh`, detached into its own process
 * group, and resolves once it prints a URL on stdout. The shell lets the command carry its own arguments,
 * quotes and variables; the group lets every process it starts be stopped together.
 */
export async function startCommandServer(command: string, args: readonly string[]): Promise<CommandServer> {
  const line = [command, ...args.map((arg) => JSON.stringify(arg))].join(' ');
  const child = spawn(line, { shell: true, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  if (child.pid === undefined) throw new Error(`cannot start ${command}`);
  const group = child.pid;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A test runner that ends without stopping the server (a crash, a timeout) must not leave it behind.
  const onExit = () => signalGroup(group, 'SIGKILL');
  process.once('exit', onExit);
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      signalGroup(group, 'SIGTERM');
      if (!(await gone(group, GRACE_MS))) {
        signalGroup(group, 'SIGKILL');
        if (!(await gone(group, GRACE_MS)))
          throw new Error(`processes of ${command} still running: ${liveMembers(group).join(', ')}`);
      }
      await exited;
      process.off('exit', onExit);
    })();
    return stopping;
  };
  try {
    return { url: await printedUrl(child, command), group, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch (error) {
    // ESRCH: no process of the group is left, which is what stopping wants.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

async function gone(group: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (liveMembers(group).length > 0) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

function printedUrl(child: ChildProcess, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => done(new Error(`${command} printed no URL in ${START_MS} ms: ${out}`)),
      START_MS,
    );
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /https?:\/\/[^\s/]+:\d+/.exec(out);
      if (match) done(undefined, match[0]);
    };
    const onExit = (code: number | null) => done(new Error(`${command} exited with ${code}: ${out}`));
    function done(error: Error | undefined, url?: string) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      // Whatever the server prints later is read and dropped, so that a full pipe never blocks it.
      child.stdout?.resume();
      if (error) reject(error);
      else resolve(url as string);
    }
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}
