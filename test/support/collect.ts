/** Every value of `stream`, read to its end (a failure of the read rejects). */
export async function collect<E>(stream: AsyncIterable<E>): Promise<E[]> {
  const values: E[] = [];
  for await (const value of stream) values.push(value);
  return values;
}
