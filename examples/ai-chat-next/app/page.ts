'use client';
// The chat page: useChat on ConvoRouteTransport. The server creates the chat (POST /api/chats) and the page
// keeps its id in the URL (?chat=), so a reload opens the same chat: its saved turns come from
// GET /api/chats?id= (toUIMessages) into useChat({ messages }), and `resume` follows the turn
// still running, after a tool approval too. Stop cancels the turn on the service.
import { useChat } from '@ai-sdk/react';
import {
  type ChatAddToolApproveResponseFunction,
  type DynamicToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
} from 'ai';
import { ConvoRouteTransport, type ConvoUIMessage, messageText } from 'convo-sdk/ai';
import { createElement as h, type ReactNode, useEffect, useState } from 'react';

const transport = new ConvoRouteTransport({ api: '/api/chat' });

/** A chat to show: its id, and its saved turns as messages. */
interface Opened {
  id: string;
  messages: ConvoUIMessage[];
}

/** The chat of the URL with its history, or a new one the server creates. */
async function open(): Promise<Opened> {
  const url = new URL(location.href);
  const known = url.searchParams.get('chat');
  if (known) {
    const response = await fetch(`/api/chats?id=${encodeURIComponent(known)}`);
    if (response.ok) return { id: known, messages: (await response.json()) as ConvoUIMessage[] };
  }
  const response = await fetch('/api/chats', { method: 'POST' });
  const { id } = (await response.json()) as { id: string };
  url.searchParams.set('chat', id);
  history.replaceState(null, '', url);
  return { id, messages: [] };
}

/** The page: opens its chat, then shows it. */
export default function Page(): ReactNode {
  const [opened, setOpened] = useState<Opened>();
  useEffect(() => {
    void open().then(setOpened);
  }, []);
  return opened ? h(ChatView, opened) : h('p', { id: 'status' }, 'opening');
}

function ChatView(props: Opened): ReactNode {
  const chat = useChat<ConvoUIMessage>({
    id: props.id,
    messages: props.messages,
    transport,
    // A history that ends with a prompt has its turn still running: resume it. One that ends with an answer
    // has none (resuming a turn that ended since would write its answer a second time).
    resume: props.messages.at(-1)?.role === 'user',
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState('');
  const busy = chat.status === 'submitted' || chat.status === 'streaming';
  return h(
    'main',
    { 'data-chat': props.id },
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
    { 'data-role': message.role, 'data-turn': convo?.turnId, 'data-status': convo?.status },
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
  );
}
