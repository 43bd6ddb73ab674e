// The OpenTelemetry Node SDK in an integrator's app: registered as its docs say, it exports (OTLP over HTTP,
// to a collector on loopback) the spans of a streamed turn with an approval, run inside a span of the app's.
// Prints one line; exits 1 with what is missing.
import { createServer } from 'node:http';
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK } from '@opentelemetry/sdk-node';

process.env.OTEL_METRICS_EXPORTER = 'none';
process.env.OTEL_LOGS_EXPORTER = 'none';

const received = [];
const collector = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    received.push(JSON.parse(body));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{}');
  });
});
await new Promise((resolve) => collector.listen(0, '127.0.0.1', resolve));
const { port } = collector.address();

const sdk = new NodeSDK({
  serviceName: 'integrator',
  traceExporter: new OTLPTraceExporter({ url: `http://127.0.0.1:${port}/v1/traces` }),
});
sdk.start();

const { Client } = await import('convo-sdk');
const { startMockServer } = await import('convo-sdk/mock');
const mock = await startMockServer({ port: 0, inspector: true });
const client = new Client({ baseUrl: mock.url, token: 'mock-token' });
const chat = await client.chats.create({ name: 'traced' });
const turn = await trace.getTracer('app').startActiveSpan('app', async (span) => {
  try {
    return await client.turns.run(
      chat.id,
      { content: '[[mock:tool_approval]]' },
      { onToolApproval: () => true },
    );
  } finally {
    span.end();
  }
});
const inspected = await (await fetch(`${mock.url}/_inspector/state`)).json();
await sdk.shutdown();
await mock.close();
collector.close();

const spans = received.flatMap((batch) =>
  batch.resourceSpans.flatMap((resource) =>
    resource.scopeSpans.flatMap((scope) =>
      scope.spans.map((span) => ({ ...span, scope: scope.scope?.name })),
    ),
  ),
);
const named = (name) => spans.find((span) => span.name === name);
const attribute = (span, key) => {
  const value = span?.attributes?.find((entry) => entry.key === key)?.value;
  return value && (value.stringValue ?? value.intValue ?? value.doubleValue ?? value.boolValue);
};
const problems = [];
const [app, run, stream, answer] = ['app', 'turns.run', 'turns.stream', 'actions.approveTool'].map(named);
if (!app || !run || !stream || !answer || !named('chats.create'))
  problems.push(`spans exported: ${spans.map((span) => span.name).join(', ') || 'none'}`);
else {
  if (run.parentSpanId !== app.spanId) problems.push('turns.run is not a child of the app span');
  if (stream.parentSpanId !== run.spanId) problems.push('turns.stream is not a child of turns.run');
  if (answer.parentSpanId !== stream.spanId)
    problems.push('actions.approveTool is not a child of turns.stream');
  if (stream.scope !== 'convo-sdk') problems.push(`scope ${stream.scope}`);
  if (attribute(stream, 'convo.turn.outcome') !== 'completed') problems.push('turns.stream outcome');
  if (Number(attribute(stream, 'gen_ai.usage.output_tokens')) !== turn.usage?.completion_tokens)
    problems.push('gen_ai.usage.output_tokens');
  if (!stream.events?.some((event) => event.name === 'convo.interaction.answered'))
    problems.push('no convo.interaction.answered event');
  if (!inspected.requests.some((request) => request.traceId === stream.traceId))
    problems.push("the inspector shows no request of the turn's trace");
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`${spans.length} spans exported over OTLP/HTTP, turns.run > turns.stream > actions.approveTool`);
