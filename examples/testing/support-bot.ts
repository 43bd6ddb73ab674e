// Integrator code under test: answers a customer's question and says whether a human should follow up.
import type { Client } from 'convo-sdk';

export interface BotReply {
  answer: string;
  escalate: boolean;
}

/** Asks the model; escalates when the answer says so or the model wanted a tool we never allow here. */
export async function answerCustomer(client: Client, chatId: string, question: string): Promise<BotReply> {
  let wantedTools = false;
  const turn = await client.turns.run(
    chatId,
    { content: question },
    {
      onToolApproval: () => {
        wantedTools = true;
        return false; // this bot never runs tools
      },
    },
  );
  return { answer: turn.content, escalate: wantedTools || /human|agent/i.test(turn.content) };
}
