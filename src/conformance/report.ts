import { describeRequest } from './junit.js';
import { sanitizeJson, stripControls } from './sanitize.js';
import type { CheckResult, ConformanceReport } from './types.js';

const MARK = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', skip: 'SKIP' } as const;

function line(raw: CheckResult): string {
  // A report built elsewhere (read back from JSON, say) prints no escape sequence either.
  const result = sanitizeJson(raw, stripControls);
  const head = `${MARK[result.outcome]}  ${result.section.padEnd(4)} ${result.title}`;
  if (result.outcome === 'skip') return `${head}\n        skipped: ${result.reason}`;
  if (result.outcome === 'pass') return head;
  const request = result.request ? `\n        request:  ${describeRequest(result.request)}` : '';
  const id = !result.request && result.requestId ? `\n        request id: ${result.requestId}` : '';
  return `${head}${request}\n        expected: ${result.expected}\n        got:      ${result.got}${id}`;
}

/** The report as text, one check a line (failures, warnings and skips with their details), then the totals. */
export function formatReport(report: ConformanceReport): string {
  const { pass, fail, warn, skip } = report.counts;
  const { coverage } = report;
  return [
    `Conformance of ${stripControls(report.url)} to API v1`,
    '',
    ...report.results.map(line),
    '',
    `Exercised ${coverage.endpoints.length} of ${coverage.endpoints.length + coverage.endpointsMissed.length} endpoints, statuses ${coverage.statuses.join(', ') || 'none'}, ${coverage.codes.length} of ${coverage.codes.length + coverage.codesMissed.length} message codes of the contract`,
    `${pass} passed, ${fail} failed, ${warn} warned, ${skip} skipped; ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s`,
  ].join('\n');
}
