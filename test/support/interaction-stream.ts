import type { ToolApproval, TurnStream } from '../../src/index.js';

/**
 * Reads `stream` up to its first interaction (a tool approval); `rest()` reads the remaining events to the
 * end and gives their types.
 */
export async function nextInteraction(stream: TurnStream) {
  const iterator = stream[Symbol.asyncIterator]();
  for (;;) {
    const { value } = await iterator.next();
    if (value?.type === 'action_required') {
      const rest = async () => {
        const types: string[] = [];
        for (let next = await iterator.next(); !next.done; next = await iterator.next())
          types.push(next.value.type);
        return types;
      };
      return { interaction: value.interaction as ToolApproval, rest };
    }
  }
}
