import type { PlainIssue } from './issues.js';

/**
 * The rule of an `approve-tool` answer (4.5), written once for the client's check and the mock's 422: one
 * decision per tool the turn asked, and none for another. Fields name the body as sent
 * (`decisions.<index>.tool_use_id`), so both sides point at the same place.
 */
export function decisionIssues(
  asked: readonly string[],
  decisions: ReadonlyArray<{ readonly tool_use_id: string }>,
): PlainIssue[] {
  const issues: PlainIssue[] = [];
  const seen = new Set<string>();
  decisions.forEach(({ tool_use_id }, index) => {
    const field = `decisions.${index}.tool_use_id`;
    const quoted = JSON.stringify(tool_use_id);
    if (!asked.includes(tool_use_id)) {
      issues.push({ field, message: `${quoted} is not a tool this interaction asked for` });
    } else if (seen.has(tool_use_id)) {
      issues.push({ field, message: `${quoted} has more than one decision` });
    }
    seen.add(tool_use_id);
  });
  for (const id of asked) {
    if (!seen.has(id))
      issues.push({ field: 'decisions', message: `has no decision for tool ${JSON.stringify(id)}` });
  }
  return issues;
}
