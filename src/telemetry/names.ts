/**
 * The names the SDK's spans, events and metrics carry. The `gen_ai.*` ones are the OpenTelemetry GenAI
 * semantic conventions', copied here as the conventions' incubating entry
 * (`@opentelemetry/semantic-conventions/incubating`) asks: they may still change, and the package does not
 * depend on it. The `convo.*` ones are the SDK's own.
 */
export const ATTR = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  conversation: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  timeToFirstChunk: 'gen_ai.response.time_to_first_chunk',
  tokenType: 'gen_ai.token.type',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  method: 'http.request.method',
  status: 'http.response.status_code',
  resendCount: 'http.request.resend_count',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  url: 'url.full',
  errorType: 'error.type',
  /** The endpoint of the contract's table (`contract/endpoints.ts`), such as `turns.stream`. */
  endpoint: 'convo.endpoint',
  /** How a streamed turn's reading ended: its terminal event, or `failed`, `stopped` or `abandoned`. */
  outcome: 'convo.turn.outcome',
  /** How many times a streamed turn's connection was re-opened. */
  resumes: 'convo.stream.resumes',
  /** A content attribute was cut at the byte bound. */
  truncated: 'convo.content.truncated',
  interactionKind: 'convo.interaction.kind',
  actionId: 'convo.action.id',
  answer: 'convo.interaction.answer',
  waitMs: 'convo.interaction.wait_ms',
  resumeAttempt: 'convo.stream.resume.attempt',
  resumeReason: 'convo.stream.resume.reason',
} as const;

/** The span events of a streamed turn. */
export const EVENT = {
  resumed: 'convo.stream.resumed',
  raised: 'convo.interaction.raised',
  answered: 'convo.interaction.answered',
} as const;

/** The metrics: the conventions' histograms, and the SDK's counters. */
export const METRIC = {
  duration: 'gen_ai.client.operation.duration',
  tokens: 'gen_ai.client.token.usage',
  timeToFirstChunk: 'gen_ai.client.operation.time_to_first_chunk',
  retries: 'convo.client.retries',
  resumes: 'convo.client.stream.resumes',
} as const;

/** The instrumentation scope's name: the package's. */
export const SCOPE = 'convo-sdk';
/** What `gen_ai.provider.name` says: the service this SDK calls. */
export const PROVIDER = 'convo';
