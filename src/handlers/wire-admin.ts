// Operator API wire shapes: users, ledger entries, usage rows (money in USD at this edge only).
import type { User } from '../services/users.js';
import type { LedgerEntry } from '../services/credits.js';
import type { UsageRow } from '../services/usage-report.js';
import { nanosToUsd } from '../core/money.js';

export function toWireUser(row: User) {
  return { user_id: row.id, email: row.email, created_at: row.created_at.toISOString() };
}

export function toWireLedgerEntry(row: LedgerEntry) {
  return {
    id: String(row.id),
    kind: row.kind,
    amount: nanosToUsd(row.amount_nanos),
    generation_id: row.generation_id,
    note: row.note,
    created_at: row.created_at.toISOString(),
  };
}

export function toWireUsageRow(row: UsageRow) {
  return {
    group: row.group,
    requests: row.requests,
    prompt_tokens: Number(row.promptTokens),
    completion_tokens: Number(row.completionTokens),
    cached_tokens: Number(row.cachedTokens),
    reasoning_tokens: Number(row.reasoningTokens),
    cost: nanosToUsd(row.costNanos),
  };
}

const CSV_COLUMNS = [
  'group',
  'requests',
  'prompt_tokens',
  'completion_tokens',
  'cached_tokens',
  'reasoning_tokens',
  'cost',
] as const;

/** RFC 4180: quote fields holding a comma, quote or line break; a leading =+-@ is quoted too, so no spreadsheet runs it as a formula. */
function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  if (/[",\r\n]/.test(text) || /^[=+\-@]/.test(text)) return `"${text.replace(/"/g, '""')}"`;
  return text;
}

export function usageCsv(rows: readonly UsageRow[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of rows) {
    const wire = toWireUsageRow(row);
    lines.push(CSV_COLUMNS.map((c) => csvField(wire[c])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
