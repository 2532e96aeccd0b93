// `modelgate audit`: the audit log for the operator, newest first, filtered by organization, action and actor
// (docs/audit-log.md). The same pages as GET /api/v1/admin/audit-log.
import { auditPage } from '../services/audit-log.js';
import { toWireAuditEntry } from '../handlers/wire-webhook.js';
import { textTable } from './text-table.js';
import { JSON_OPTION, parseOptions, print, UsageError, withDatabase, type CommandDefinition } from './command.js';

export const auditCommand: CommandDefinition = {
  name: 'audit',
  usage: [
    [
      'audit [--org ORG_ID] [--action A] [--actor ID] [--limit N] [--cursor C] [--json]',
      'management actions, newest first: who changed what, before and after',
    ],
  ],
  details:
    'Each line names the credential that acted (its kind and id; `cli console` for this command line), the\n' +
    'action, its target and the organization. --json prints the entries with their fields before and after and\n' +
    'the cursor of the next page.',
  async run({ args, config, io }) {
    const { values } = parseOptions(args, {
      org: { type: 'string' },
      action: { type: 'string' },
      actor: { type: 'string' },
      limit: { type: 'string' },
      cursor: { type: 'string' },
      ...JSON_OPTION,
    });
    const limit = values.limit ?? '50';
    if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 500)
      throw new UsageError(`--limit must be a whole number from 1 to 500, got "${limit}"`);
    if (values.cursor !== undefined && !/^\d{1,19}$/.test(values.cursor))
      throw new UsageError(`--cursor must be the next_cursor of a previous page, got "${values.cursor}"`);
    return withDatabase(config, async (db) => {
      const page = await auditPage(db, {
        organizationId: values.org,
        action: values.action,
        actorId: values.actor,
        cursor: values.cursor,
        limit: Number(limit),
      });
      const entries = page.rows.map(toWireAuditEntry);
      const human = textTable(
        ['TIME', 'ORG', 'ACTOR', 'ACTION', 'TARGET'],
        entries.map((e) => [
          e.created_at,
          e.organization_id ?? '-',
          `${e.actor.kind} ${e.actor.id}`,
          e.action,
          `${e.target.type} ${e.target.id}`,
        ]),
      );
      const more = page.nextCursor === null ? '' : `\nolder entries: --cursor ${page.nextCursor}`;
      print(io, values.json, `${human}${more}`, { data: entries, next_cursor: page.nextCursor });
      return 0;
    });
  },
};
