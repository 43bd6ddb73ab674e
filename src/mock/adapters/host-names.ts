/**
 * The names a listening server is reached by, for the inspector's Host check and the command's warning.
 * No Node module here: the machine's addresses and name are passed in (server.ts reads them from node:os).
 */

/** What the machine knows of itself: its interface addresses and its host name (`os.networkInterfaces()`, `os.hostname()`). */
export interface MachineNames {
  /** Every interface address, IPv4 (`192.168.1.20`) or IPv6 (`fe80::1`), without brackets. */
  addresses: readonly string[];
  /** The host name. */
  hostname: string;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** Whether `hostname` (as a URL spells it: `127.0.0.1`, `[::1]`, `localhost`) is this machine only. */
export function isLoopback(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return name === 'localhost' || name === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(name);
}

/** Whether `hostname` binds every interface: `0.0.0.0` or `[::]`. */
function isWildcard(hostname: string): boolean {
  return hostname === '0.0.0.0' || hostname === '[::]';
}

/**
 * The `Host` values (`name:port`) a server listening at `url` is reached by:
 * - loopback: its address and `localhost` (no other site can resolve to it);
 * - a wildcard (`0.0.0.0`, `[::]`): that, the loopback names, every address of the machine and its name;
 * - any other address: that address and the machine's name.
 */
export function reachableHosts(url: string, machine: MachineNames): string[] {
  const { hostname, port } = new URL(url);
  const names = [hostname];
  if (isLoopback(hostname)) names.push('localhost');
  else {
    if (isWildcard(hostname)) {
      names.push(...LOOPBACK_NAMES);
      names.push(...machine.addresses.map((address) => (address.includes(':') ? `[${address}]` : address)));
    }
    if (machine.hostname !== '') names.push(machine.hostname);
  }
  // Through URL, as a browser writes Host: lowercase, IPv6 compressed, no `:80`.
  const hosts = names.flatMap((name) => {
    try {
      return [new URL(`http://${name}:${port}`).host];
    } catch {
      return [];
    }
  });
  return [...new Set(hosts)];
}
