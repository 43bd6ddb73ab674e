import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/** The page's text outside fenced code blocks (a `#` there is a shell comment, not a heading). */
export function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    return !fenced && !line.startsWith('```');
  });
}

/** The relative links of a page (images included), inline code left out; `page` from the repository's root. */
export function links(page: string): string[] {
  const text = prose(readFileSync(join(root, page), 'utf8'))
    .join('\n')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}
