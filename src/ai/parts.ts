import type { UIMessage, UIMessageChunk } from 'ai';
import type {
  ElicitationPayload,
  FlatValue,
  PlanApprovalPayload,
  Step,
  TurnFailure,
  TurnStatus,
  TurnStreamBody,
  Usage,
} from '../index.js';

/** What a turn sends besides its content: per transport, and per request through `body`. */
export type TurnFields = Omit<TurnStreamBody, 'content'>;

/** What an interaction that pauses the turn shares, whatever its kind. */
export interface InteractionCommon {
  /** The interaction's id: the answer names it. */
  actionId: string;
  /** The chat of the turn that asks. */
  chatId: string;
  /** When it expires (epoch ms). */
  expiresAt: number;
  /** `pending` until the turn goes on (answered, or expired on the service). */
  status: 'pending' | 'resolved';
}

/**
 * A `plan_approval`, `elicitation` or `auth_required` interaction as a `data-convo-interaction` part (its
 * id is the action id): answer it with `answerInteraction` or `transport.answer`.
 */
export type InteractionData = InteractionCommon &
  (
    | { kind: 'plan_approval'; payload: PlanApprovalPayload }
    | { kind: 'elicitation'; payload: ElicitationPayload }
    | { kind: 'auth_required'; resolution: string | null }
    /** A kind this version does not know: it cannot be answered; `stop()` cancels the turn. */
    | { kind: 'unknown'; rawKind: string }
  );

/** How the user answered an interaction, by kind. */
export type InteractionAnswer<K extends InteractionData['kind'] = InteractionData['kind']> =
  K extends 'plan_approval'
    ? { action: 'approve' | 'reject' }
    : K extends 'elicitation'
      ? { action: 'accept'; content: Record<string, FlatValue> } | { action: 'decline' | 'cancel' }
      : K extends 'auth_required'
        ? { action: 'cancel' }
        : never;

/** The data parts the mapping writes, by name (`data-convo-step`, ...). */
export type ConvoDataParts = {
  /** A reasoning step or tool execution (its id is the step's key; updated in place). */
  'convo-step': Step;
  /** An interaction that pauses the turn until it is answered. */
  'convo-interaction': InteractionData;
  /**
   * A provider failover replaced the text: every text part before this one was discarded by the service.
   * `messageText` shows only what follows the last one.
   */
  'convo-replace': { discardedChars: number };
  /**
   * Transient, never in a message: the parts of the message a continuation (after a tool approval) goes
   * on with, for a page that reads the continuation again after a reload. `ConvoRouteTransport` writes
   * them first on a resume; a page that shows the message passes the part by.
   */
  'convo-restate': { parts: UIMessage['parts'] };
};

/** The message metadata the mapping writes, under `convo`. */
export interface ConvoMetadata {
  /**
   * The turn the message shows: its chat and key from the start, its id once it started, its status and
   * usage once it ended, or why it failed. Written by the transport; a server never trusts it back.
   */
  convo?: {
    /** The service's chat. */
    chatId?: string;
    /** The turn's `Idempotency-Key`: sending it again reads the turn from its start. */
    idempotencyKey?: string;
    /** The turn's id (its `message_id`), once it started. */
    turnId?: number;
    /** The turn's status once it ended (3.2): the terminal event's, `completed` or `cancelled`. */
    status?: TurnStatus;
    /** What the turn consumed, once it ended. */
    usage?: Usage | null;
    /** Why the turn failed. */
    error?: Pick<TurnFailure, 'code' | 'message' | 'retryable'>;
  };
}

/** A `UIMessage` of a chat driven by `ConvoChatTransport` or `toUIMessageStream`. */
export type ConvoUIMessage = UIMessage<ConvoMetadata, ConvoDataParts>;

/** A chunk of the UI message stream the mapping writes. */
export type ConvoChunk = UIMessageChunk<ConvoMetadata, ConvoDataParts>;

/** The data part name that marks a failover replace. */
const REPLACE_PART = 'data-convo-replace';

/**
 * The text to show for a message: its text parts after the last failover replace, joined. At the end of a
 * turn it is exactly the saved turn's `content`; without a replace, the plain text parts joined.
 */
export function messageText(message: Pick<UIMessage, 'parts'>): string {
  let text = '';
  for (const part of message.parts) {
    if (part.type === REPLACE_PART) text = '';
    else if (part.type === 'text') text += part.text;
  }
  return text;
}
