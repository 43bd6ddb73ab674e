// The hand-written splitter of the shared workloads (benchmarks 11 and 14): blank-line framing, each event's
// data line parsed and handed out, nothing else (LF endings, one data line, comments skipped).
export async function splitData(
  body: ReadableStream<Uint8Array>,
  take: (data: unknown) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    buffer += decoder.decode(r.value, { stream: true });
    let at = 0;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', at)) {
      const data = buffer.indexOf('data: ', at);
      if (data !== -1 && data < end && (data === at || buffer[data - 1] === '\n'))
        take(JSON.parse(buffer.slice(data + 6, end)));
      at = end + 2;
    }
    buffer = buffer.slice(at);
  }
}
