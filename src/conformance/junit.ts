import { sanitizeJson, stripControls } from './sanitize.js';
import type { CheckResult, ConformanceReport } from './types.js';

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function testcase(result: CheckResult): string {
  const head = `  <testcase classname="api-v1.${escapeXml(result.section)}" name="${escapeXml(`${result.section} ${result.title}`)}">`;
  const body = (tag: string, message: string, text: string) =>
    `${head}\n    <${tag} message="${escapeXml(message)}">${escapeXml(text)}</${tag}>\n  </testcase>`;
  if (result.outcome === 'fail') {
    const request = result.request ? `request: ${describeRequest(result.request)}\n` : '';
    return body(
      'failure',
      `expected ${result.expected}`,
      `${request}expected: ${result.expected}\ngot: ${result.got}`,
    );
  }
  if (result.outcome === 'skip') return body('skipped', result.reason ?? 'skipped', '');
  if (result.outcome === 'warn') {
    return `${head}\n    <system-out>${escapeXml(`WARN: expected ${result.expected}; got ${result.got}`)}</system-out>\n  </testcase>`;
  }
  return `${head}</testcase>`;
}

/** A failing request as one line: `GET /api/v1/chats -> 403 (request id 1f...)`. */
export function describeRequest(request: NonNullable<CheckResult['request']>): string {
  const id = request.requestId ? ` (request id ${request.requestId})` : '';
  return `${request.call} -> ${request.status ?? 'no answer'}${id}`;
}

/** The report as a JUnit XML document, one test case per check (a warning passes, with its text). */
export function formatJunit(raw: ConformanceReport): string {
  const report = sanitizeJson(raw, stripControls);
  const { pass, fail, skip, warn } = report.counts;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="convo-conformance ${escapeXml(report.url)}" tests="${pass + fail + skip + warn}" failures="${fail}" skipped="${skip}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...report.results.map(testcase),
    '</testsuite>',
    '',
  ].join('\n');
}
