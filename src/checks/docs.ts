// A check's documentation as markdown, rendered from its meta: the same text
// is committed as docs/checks/F0xx.md, printed by `ptx-debug checks ID`, and
// used as SARIF help and in the HTML report.
import { CATALOG_BY_ID } from './catalog.js';
import type { CheckMeta } from './types.js';

function fence(code: string): string {
  return ['```ptx', code.replace(/\n+$/, ''), '```'].join('\n');
}

export function renderCheckDoc(meta: CheckMeta): string {
  const rule = CATALOG_BY_ID.get(meta.id)?.rule;
  const parts = [
    `# ${meta.id} ${meta.name}`,
    '',
    `Category: ${meta.category} · severity: ${meta.severity} · points: ${meta.points}`,
    '',
    meta.description,
    '',
    '## Why it matters',
    '',
    meta.rationale,
    '',
    '## How to fix it',
    '',
    meta.remedy,
  ];
  if (rule !== undefined) parts.push('', '## The catalog rule', '', rule);
  if (meta.notes !== undefined) parts.push('', '## The rule as built', '', meta.notes);
  parts.push('', '## Fails', '', fence(meta.examples.fails), '', '## Passes', '', fence(meta.examples.passes), '');
  return parts.join('\n');
}
