/// <reference types="vite/client" />
// A chat UI on the AI SDK's `useChat`, over the service. Two ways, chosen by `?mode=`:
// - `direct`: `ConvoChatTransport` in the page, with a client of its own, on the service and token given
//   at build time (`VITE_CONVO_BASE_URL`, `VITE_CONVO_TOKEN`: the mock's, or a short-lived one a real app
//   fetches from its backend); never from the page's URL, which lands in history, logs and `Referer`;
// - `route`: `useChat`'s default HTTP transport posting to this app's server (server.ts), which holds the
//   token and answers with `ConvoChatTransport` on the server.
// Written with `createElement` so that the repository's type check covers it without a JSX setup.
import { useChat } from '@ai-sdk/react';
import {
  type ChatAddToolApproveResponseFunction,
  type ChatTransport,
  DefaultChatTransport,
  type DynamicToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
} from 'ai';
import { Client } from 'convo-sdk';
import { ConvoChatTransport, type ConvoUIMessage, messageText } from 'convo-sdk/ai';
import { createElement as h, type ReactNode, useState } from 'react';
import { createRoot } from 'react-dom/client';

const params = new URLSearchParams(location.search);

/** A new chat of the service, and the transport that streams its turns. */
async function openChat(): Promise<{ id: string; transport: ChatTransport<ConvoUIMessage> }> {
  if (params.get('mode') === 'route') {
    const created = (await (await fetch('/api/chats', { method: 'POST' })).json()) as { id: string };
    return { id: created.id, transport: new DefaultChatTransport<ConvoUIMessage>({ api: '/api/chat' }) };
  }
  const client = new Client({
    baseUrl: import.meta.env.VITE_CONVO_BASE_URL ?? '',
    token: import.meta.env.VITE_CONVO_TOKEN ?? '',
  });
  const chat = await client.chats.create({ name: 'AI SDK example' });
  return { id: chat.id, transport: new ConvoChatTransport({ client }) };
}

function App(props: { id: string; transport: ChatTransport<ConvoUIMessage> }): ReactNode {
  const chat = useChat<ConvoUIMessage>({
    id: props.id,
    transport: props.transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState('');
  const busy = chat.status === 'submitted' || chat.status === 'streaming';
  return h(
    'main',
    null,
    h(
      'form',
      {
        onSubmit: (event: { preventDefault(): void }) => {
          event.preventDefault();
          void chat.sendMessage({ text: input });
          setInput('');
        },
      },
      h('input', {
        id: 'prompt',
        value: input,
        size: 60,
        onChange: (event: { target: { value: string } }) => setInput(event.target.value),
      }),
      h('button', { id: 'send', type: 'submit', disabled: busy }, 'Send'),
      h('button', { id: 'stop', type: 'button', disabled: !busy, onClick: () => void chat.stop() }, 'Stop'),
    ),
    h('p', { id: 'status' }, chat.status),
    chat.error ? h('p', { id: 'error' }, chat.error.message) : null,
    chat.messages.map((message) =>
      h(Message, { key: message.id, message, approve: chat.addToolApprovalResponse }),
    ),
  );
}

/** A message: `messageText` (never the text a failover discarded), and its tools with their approvals. */
function Message(props: { message: ConvoUIMessage; approve: ChatAddToolApproveResponseFunction }): ReactNode {
  const { message } = props;
  const convo = message.metadata?.convo;
  return h(
    'article',
    {
      className: 'message',
      'data-role': message.role,
      'data-turn': convo?.turnId,
      'data-status': convo?.status,
    },
    h('p', { className: 'text' }, messageText(message)),
    message.parts.map((part) =>
      part.type === 'dynamic-tool' ? h(Tool, { key: part.toolCallId, part, approve: props.approve }) : null,
    ),
  );
}

function Tool(props: { part: DynamicToolUIPart; approve: ChatAddToolApproveResponseFunction }): ReactNode {
  const { part } = props;
  const asking = part.state === 'approval-requested' ? part.approval.id : undefined;
  return h(
    'div',
    { className: 'tool', 'data-state': part.state },
    `${part.title ?? part.toolName}: ${part.state} `,
    asking &&
      h(
        'button',
        {
          className: 'approve',
          type: 'button',
          onClick: () => props.approve({ id: asking, approved: true }),
        },
        'Approve',
      ),
    asking &&
      h(
        'button',
        { className: 'deny', type: 'button', onClick: () => props.approve({ id: asking, approved: false }) },
        'Deny',
      ),
  );
}

const root = document.getElementById('root') as HTMLElement;
openChat().then(
  (chat) => {
    document.body.dataset.chat = chat.id;
    createRoot(root).render(h(App, chat));
  },
  (error: unknown) => {
    root.textContent = `could not open a chat: ${String(error)}`;
  },
);
