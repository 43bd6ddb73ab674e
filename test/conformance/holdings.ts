/**
 * What each of the mock's two chat credentials holds of chats and skills at `url`: a conformance run must
 * leave these as it found them.
 */
export async function holdings(url: string): Promise<unknown[]> {
  const seen: unknown[] = [];
  for (const token of ['mock-token', 'other-token']) {
    for (const path of ['/api/v1/chats', '/api/v1/skills']) {
      const answer = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      seen.push(answer.status === 200 ? ((await answer.json()) as { data: unknown }).data : answer.status);
    }
  }
  return seen;
}
