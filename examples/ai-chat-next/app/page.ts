'use client';
// The chat page: useChat on ConvoRouteTransport. Its chat id is in the URL (?chat=), so a reload opens the
// same chat and `resume: true` follows the turn still running; Stop cancels it on the service.
import { useChat } from '@ai-sdk/react';
import {
  type ChatAddToolApproveResponseFunction,
  type DynamicToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
} from 'ai';
import { ConvoRouteTransport, type ConvoUIMessage, messageText } from 'convo-sdk/ai';
import { createElement as h, type ReactNode, useEffect, useState } from 'react';

const transport = new ConvoRouteTransport({ api: '/api/chat' });

/** The page: finds or creates its chat, then shows it. */
export default function Page(): ReactNode {
  const [id, setId] = useState<string>();
  useEffect(() => {
    const url = new URL(location.href);
    const known = url.searchParams.get('chat');
    if (known) return setId(known);
    void fetch('/api/chats', { method: 'POST' })
      .then((response) => response.json() as Promise<{ id: string }>)
      .then((chat) => {
        url.searchParams.set('chat', chat.id);
        history.replaceState(null, '', url);
        setId(chat.id);
      });
  }, []);
  return id ? h(ChatView, { id }) : h('p', { id: 'status' }, 'opening');
}

function ChatView(props: { id: string }): ReactNode {
  const chat = useChat<ConvoUIMessage>({
    id: props.id,
    transport,
    resume: true,
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
