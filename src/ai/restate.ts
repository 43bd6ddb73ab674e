import type { DynamicToolUIPart, UIMessageChunk } from 'ai';
import type { ConvoUIMessage } from './parts.js';

/** The data part that carries a message's parts, for a page that does not show them (transient). */
const RESTATE_PART = 'data-convo-restate';

/**
 * The chunks that rebuild `parts` (a message as this mapping writes it: text, steps, tool parts, `data-convo-*`
 * parts) on a page that starts from nothing: a continuation after a tool approval writes only what comes
 * after it, and a page reloaded while it streams reads it again without the message it continues. Parts this
 * mapping never writes (reasoning, files, sources, static tools) are left out.
 */
export function restatedChunks(parts: ConvoUIMessage['parts']): UIMessageChunk[] {
  const out: UIMessageChunk[] = [];
  let texts = 0;
  let inStep = false;
  for (const part of parts) {
    if (part.type === 'text') {
      const id = `restate-${texts++}`;
      out.push(
        { type: 'text-start', id },
        { type: 'text-delta', id, delta: part.text },
        { type: 'text-end', id },
      );
    } else if (part.type === 'step-start') {
      if (inStep) out.push({ type: 'finish-step' });
      out.push({ type: 'start-step' });
      inStep = true;
    } else if (part.type === 'dynamic-tool') {
      // A tool part the browser sent malformed is left out, not passed on to fail another page.
      if (typeof part.toolName === 'string') out.push(...toolChunks(part));
    } else if (part.type.startsWith('data-convo-')) {
      const { type, id, data } = part as { type: `data-${string}`; id?: string; data: unknown };
      out.push(id === undefined ? { type, data } : { type, id, data });
    }
  }
  if (inStep) out.push({ type: 'finish-step' });
  return out;
}

/** A tool part as the chunks that write it: its input, its approval and the answer, then its outcome. */
function toolChunks(part: DynamicToolUIPart): UIMessageChunk[] {
  const { toolCallId, toolName } = part;
  const out: UIMessageChunk[] = [
    {
      type: 'tool-input-available',
      toolCallId,
      toolName,
      input: part.input,
      dynamic: true,
      ...(part.title === undefined ? {} : { title: part.title }),
      ...(part.callProviderMetadata === undefined ? {} : { providerMetadata: part.callProviderMetadata }),
    },
  ];
  const approval = part.approval;
  if (typeof approval?.id === 'string') {
    out.push({ type: 'tool-approval-request', approvalId: approval.id, toolCallId });
    // AI SDK 7 records the answer; AI SDK 6 has no such chunk and passes it by.
    if (approval.approved !== undefined) {
      const answer = { type: 'tool-approval-response', approvalId: approval.id, approved: approval.approved };
      out.push(answer as UIMessageChunk);
    }
  }
  if (part.state === 'output-available')
    out.push({ type: 'tool-output-available', toolCallId, output: part.output, dynamic: true });
  else if (part.state === 'output-denied') out.push({ type: 'tool-output-denied', toolCallId });
  else if (part.state === 'output-error')
    out.push({ type: 'tool-output-error', toolCallId, errorText: part.errorText, dynamic: true });
  return out;
}

/**
 * The chunks of a UI message stream with each `data-convo-restate` part replaced by the chunks that write
 * the parts it carries: what a page that reads a segment again (a resume) needs to rebuild the message the
 * segment continues. A page that still shows the message ignores the part (it is transient).
 */
export function unpackRestate(): TransformStream<UIMessageChunk, UIMessageChunk> {
  return new TransformStream({
    transform(chunk, controller) {
      if (chunk.type !== RESTATE_PART) return controller.enqueue(chunk);
      const parts = (chunk as { data?: { parts?: unknown } }).data?.parts;
      if (!Array.isArray(parts)) return;
      // Only what has the shape of a message part: the parts came from a browser, through the route.
      const shaped = parts.filter((part) => typeof (part as { type?: unknown } | null)?.type === 'string');
      for (const out of restatedChunks(shaped)) controller.enqueue(out);
    },
  });
}
