import type { CheckResult, ConformanceReport } from './types.js';

const MARK = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' } as const;

function line(result: CheckResult): string {
  const head = `${MARK[result.outcome]}  ${result.section.padEnd(4)} ${result.title}`;
  if (result.outcome === 'skip') return `${head}\n        skipped: ${result.reason}`;
  if (result.outcome === 'pass') return head;
  const id = result.requestId ? `\n        request id: ${result.requestId}` : '';
  return `${head}\n        expected: ${result.expected}\n        got:      ${result.got}${id}`;
}

/** The report as text, one check a line (failures and skips with their details), then the totals. */
export function formatReport(report: ConformanceReport): string {
  const { pass, fail, skip } = report.counts;
  return [
    `Conformance of ${report.url} to API v1`,
    '',
    ...report.results.map(line),
    '',
    `${pass} passed, ${fail} failed, ${skip} skipped; ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s`,
  ].join('\n');
}
