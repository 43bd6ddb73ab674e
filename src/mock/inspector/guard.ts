/**
 * Who may use the inspector: only a page the mock served itself. A request whose `Host` is not the mock's
 * own address is refused (a DNS-rebinding page reaches the port under its own name); a change must come as
 * JSON (a cross-site form cannot send it without a preflight, which gets no CORS answer) from no origin or
 * the mock's own. Nothing here sets a CORS header, so no other origin can read an answer.
 */
export class InspectorGuard {
  #hosts = new Set<string>();
  #origins = new Set<string>();

  /**
   * Records the `Host` values (`name:port`) the server is reached by (`reachableHosts`): its own address,
   * `localhost` for loopback, and for a wildcard bind the machine's addresses and name. A DNS-rebinding page
   * reaches the port under a name of its own, which is never among them.
   */
  listening(hosts: readonly string[]): void {
    this.#hosts = new Set(hosts.map((host) => host.toLowerCase()));
    this.#origins = new Set([...this.#hosts].map((allowed) => `http://${allowed}`));
  }

  /**
   * Why `request` is refused, or undefined when it may go on. `kind`: `page` (GET /, which any tab may
   * open), `read` (the state, an exchange, the export: a browser says a request from another site is one)
   * or `change`.
   */
  refusal(request: Request, kind: 'page' | 'read' | 'change'): string | undefined {
    const host = request.headers.get('host') ?? '';
    if (!this.#hosts.has(host.toLowerCase()))
      return `the inspector answers only to Host ${[...this.#hosts].join(' or ')}`;
    if (kind === 'page') return undefined;
    const site = request.headers.get('sec-fetch-site');
    if (site !== null && site !== 'same-origin' && site !== 'none')
      return `the inspector ${kind === 'read' ? 'answers' : 'takes changes'} only from its own page`;
    if (kind === 'read') return undefined;
    const origin = request.headers.get('origin');
    if (origin !== null && !this.#origins.has(origin))
      return 'the inspector takes changes only from its own page';
    if (!request.headers.get('content-type')?.startsWith('application/json'))
      return 'a change must be sent as application/json';
    return undefined;
  }
}
