import type { CapturedBody, Exchange } from './exchanges.js';
import { eventText } from './timeline.js';

/** A HAR 1.2 name/value pair. */
interface HarPair {
  name: string;
  value: string;
}

/**
 * The exchanges as a HAR 1.2 log (oldest first), as the inspector recorded them: tokens masked, bodies
 * cut at the inspector's cap (`_convo.truncated`), a stream's body as its event text (`event:`/`data:` lines).
 * `_convo` carries what HAR has no field for: `message_code`, credential name, chat, stream event times,
 * the fault that fired.
 */
export function harOf(exchanges: readonly Exchange[]): unknown {
  return {
    log: {
      version: '1.2',
      creator: { name: 'convo-mock inspector', version: '1' },
      entries: exchanges
        .slice()
        .sort((a, b) => a.id - b.id)
        .map(entryOf),
    },
  };
}

function entryOf(exchange: Exchange): unknown {
  const url = new URL(exchange.url);
  const request = exchange.request;
  const response = exchange.response;
  const body: CapturedBody = response.events
    ? { text: eventText(response.events), bytes: -1, truncated: response.eventsDropped > 0 }
    : response.body;
  const contentType = (headers: Array<[string, string]>) =>
    headers.find(([name]) => name === 'content-type')?.[1] ?? '';
  return {
    startedDateTime: exchange.at,
    time: exchange.ms,
    request: {
      method: exchange.method,
      url: exchange.url,
      httpVersion: 'HTTP/1.1',
      headers: pairs(request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: request.body.bytes,
      ...(request.body.bytes > 0 && {
        postData: { mimeType: contentType(request.headers), text: request.body.text },
      }),
    },
    response: {
      status: exchange.status,
      statusText: exchange.status === 0 ? 'dropped' : '',
      httpVersion: 'HTTP/1.1',
      headers: pairs(response.headers),
      cookies: [],
      content: { size: body.text.length, mimeType: contentType(response.headers), text: body.text },
      redirectURL: '',
      headersSize: -1,
      bodySize: body.bytes,
    },
    cache: {},
    timings: { send: 0, wait: exchange.ms, receive: 0 },
    _convo: {
      id: exchange.id,
      messageCode: exchange.code ?? null,
      credential: exchange.credential,
      chatId: exchange.chatId ?? null,
      from: exchange.from,
      fault: exchange.fault ?? null,
      ...(response.events && { events: response.events, eventsDropped: response.eventsDropped }),
      ...((request.body.truncated || body.truncated) && {
        truncated: { request: request.body.truncated, response: body.truncated },
      }),
    },
  };
}

function pairs(headers: Array<[string, string]>): HarPair[] {
  return headers.map(([name, value]) => ({ name, value }));
}
