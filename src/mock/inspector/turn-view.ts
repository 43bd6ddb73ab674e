import type { TurnRecord } from '../state/records.js';
import type { CredentialNames } from './credential-names.js';
import type { CutText, TokenMask } from './masking.js';
import { boundPayload, type StreamTimeline, type TimelineEntry } from './timeline.js';

/** Characters of a turn's prompt and content the state holds (their full length beside them). */
export const TURN_PREVIEW_CHARS = 2 * 1024;
/** Characters of a turn's prompt and content its detail (`/_inspector/turn?id=`) holds. */
export const TURN_DETAIL_CHARS = 1024 * 1024;
/** Streams of a turn the state holds (the last ones); each stream is whole in its exchange's detail. */
const STREAMS_SHOWN = 3;
/** Timeline entries of a stream the state holds: the first and the last ones. */
const ENTRIES_SHOWN = 24;
/** Characters of a timeline event's payload the state holds, about. */
const EVENT_DATA_CHARS = 2 * 1024;

/** A stream's timeline as the inspector shows it: tokens masked, and what was left out counted. */
export interface StreamView extends StreamTimeline {
  /** Entries left out between the first and the last ones. */
  omitted: number;
}

/** A turn as the inspector shows it: tokens masked everywhere, prompt and content cut. */
export interface TurnView {
  /** The turn (`message_id`). */
  id: number;
  /** Its chat. */
  chat_id: string;
  /** Its `Idempotency-Key`. */
  key: string;
  /** Its status. */
  status: TurnRecord['status'];
  /** `stream` or `sync`. */
  channel: TurnRecord['channel'];
  /** `manual` or `auto`. */
  permission_mode: TurnRecord['permission_mode'];
  /** The credential that sent it, by name. */
  credential: string;
  /** Model id and code. */
  model: string;
  /** The integrator's metadata. */
  metadata: unknown;
  /** Token usage. */
  usage: TurnRecord['usage'];
  /** Why it failed. */
  error: unknown;
  /** What was sent, cut. */
  prompt: CutText;
  /** The answer, cut. */
  content: CutText;
  /** Creation time. */
  created_at: string;
  /** The streams that carried it (the last `STREAMS_SHOWN` in the state; none in the detail). */
  streams: StreamView[];
  /** Streams left out before those. */
  streamsOmitted: number;
}

/** What a turn's view is made of besides its record. */
export interface TurnContext {
  /** Names credentials. */
  names: CredentialNames;
  /** Masks tokens. */
  mask: TokenMask;
  /** The model's id and code. */
  model: (id: number) => string;
  /** The streams of a turn, oldest first. */
  streams: (turnId: number) => StreamTimeline[];
}

/**
 * `turn` as the state lists it: prompt and content cut at `TURN_PREVIEW_CHARS`, the last streams with
 * their first and last entries, each text cut likewise and each payload at `EVENT_DATA_CHARS`.
 */
export function turnPreview(turn: TurnRecord, context: TurnContext): TurnView {
  const streams = context.streams(turn.id);
  const shown = streams.slice(-STREAMS_SHOWN);
  return {
    ...turnFields(turn, context, TURN_PREVIEW_CHARS),
    streams: shown.map((stream) => streamView(stream, context.mask, TURN_PREVIEW_CHARS, ENTRIES_SHOWN)),
    streamsOmitted: streams.length - shown.length,
  };
}

/** `turn` with prompt and content at `TURN_DETAIL_CHARS` and no streams: the whole text, one request away. */
export function turnDetail(turn: TurnRecord, context: TurnContext): TurnView {
  return { ...turnFields(turn, context, TURN_DETAIL_CHARS), streams: [], streamsOmitted: 0 };
}

/**
 * `timeline` masked: each text entry (masked here, as a token may span its deltas) cut at `textChars`,
 * and past `entries`, the first entry and the last ones kept.
 */
export function streamView(
  timeline: StreamTimeline,
  mask: TokenMask,
  textChars: number,
  entries = Number.POSITIVE_INFINITY,
): StreamView {
  const all = timeline.entries;
  const kept = all.length <= entries ? all : [all[0] as TimelineEntry, ...all.slice(1 - entries)];
  return {
    ...timeline,
    entries: kept.map((entry) => entryView(entry, mask, textChars)),
    omitted: all.length - kept.length,
  };
}

function entryView(entry: TimelineEntry, mask: TokenMask, textChars: number): TimelineEntry {
  if (entry.type === 'ping') return entry;
  if (entry.type === 'event') {
    const size = JSON.stringify(entry.data)?.length ?? 0;
    return size <= EVENT_DATA_CHARS ? entry : { ...entry, data: boundPayload(entry.data, EVENT_DATA_CHARS) };
  }
  const cut = mask.cut(entry.text, textChars, entry.clipped === undefined);
  const clipped = (entry.clipped ?? 0) + Math.max(0, entry.text.length - cut.text.length);
  return { ...entry, text: cut.text, ...(cut.truncated && { clipped }) };
}

function turnFields(turn: TurnRecord, context: TurnContext, chars: number) {
  const { mask } = context;
  return {
    id: turn.id,
    chat_id: mask.text(turn.chat_id),
    key: mask.text(turn.key),
    status: turn.status,
    channel: turn.channel,
    permission_mode: turn.permission_mode,
    credential: context.names.name(turn.credential_id),
    model: context.model(turn.model_id),
    metadata: mask.json(turn.metadata),
    usage: turn.usage,
    error: mask.json(turn.error),
    prompt: mask.cut(turn.prompt, chars),
    content: mask.cut(turn.content, chars),
    created_at: turn.created_at,
  };
}
