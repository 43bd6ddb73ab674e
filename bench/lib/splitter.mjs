// The hand-written splitter of benchmark 11, the reference (1.00): TextDecoder, blank-line framing with
// indexOf, each event's `event` and `data` fields read, its data handed out as a string. LF endings only,
// no ids, retries, comments or BOM: the least a reader of this body can do.

const D = 100; // 'd'
const E = 101; // 'e'
const COLON = 58;
const SPACE = 32;

/**
 * @param {ReadableStream<Uint8Array>} body
 * @param {(data: string, event: string | null) => void} onMessage
 */
export async function splitEvents(body, onMessage) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    const text = decoder.decode(r.value, { stream: true });
    buffer = buffer.length ? buffer + text : text;
    let from = 0;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', from)) {
      dispatch(buffer, from, end, onMessage);
      from = end + 2;
    }
    if (from !== 0) buffer = buffer.slice(from);
  }
  buffer += decoder.decode();
  if (buffer.length) dispatch(buffer, 0, buffer.length, onMessage);
}

/**
 * One event: the lines of `buffer` from `from` to `end`.
 * @param {string} buffer
 * @param {number} from
 * @param {number} end
 * @param {(data: string, event: string | null) => void} onMessage
 */
function dispatch(buffer, from, end, onMessage) {
  let event = null;
  let data = null;
  for (let line = from; line < end; ) {
    let stop = buffer.indexOf('\n', line);
    if (stop === -1 || stop > end) stop = end;
    const first = buffer.charCodeAt(line);
    if (first === D && buffer.charCodeAt(line + 4) === COLON && buffer.startsWith('data', line)) {
      const value = buffer.substring(buffer.charCodeAt(line + 5) === SPACE ? line + 6 : line + 5, stop);
      data = data === null ? value : `${data}\n${value}`;
    } else if (first === E && buffer.charCodeAt(line + 5) === COLON && buffer.startsWith('event', line)) {
      event = buffer.substring(buffer.charCodeAt(line + 6) === SPACE ? line + 7 : line + 6, stop);
    }
    line = stop + 1;
  }
  if (data !== null) onMessage(data, event);
}
