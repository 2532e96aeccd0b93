// `modelgate guardrails list|set|add|remove --org ORG_ID`: an organization's guardrails, for the operator (who acts
// as its owner). Running gateways hear each change from the database and apply it to their next request.
import { readFile } from 'node:fs/promises';
import { OPERATOR } from '../auth/member-roles.js';
import type { Guardrail } from '../core/guardrail.js';
import type { WireGuardrail } from '../guardrails/parse-guardrails.js';
import { CONSOLE_ACTOR } from '../services/audit-log.js';
import { organizationGuardrails, putOrganizationGuardrails, type GuardrailEditor } from '../services/guardrails.js';
import { requireOrganization } from '../services/organizations.js';
import { CommandFailedError, UsageError } from './cli-errors.js';
import {
  JSON_OPTION,
  parseOptions,
  print,
  requireOption,
  subcommand,
  withDatabase,
  type CommandDefinition,
} from './command.js';
import { asCommand } from './service-refusals.js';
import { textTable } from './text-table.js';

const SUBCOMMANDS = ['list', 'set', 'add', 'remove'] as const;

export const guardrailsCommand: CommandDefinition = {
  name: 'guardrails',
  usage: [
    ['guardrails list --org ORG_ID [--json]', "an organization's guardrails, in the order they run"],
    [
      'guardrails set --org ORG_ID --file FILE [--json]',
      'replace them with the JSON list in FILE (as PUT /guardrails takes it; [] removes them all)',
    ],
    [
      'guardrails add --org ORG_ID --name N --stage input|output --action redact|block|flag --detector D [--pattern P] [--json]',
      'add one (or replace the one of that name)',
    ],
    ['guardrails remove --org ORG_ID --name N [--json]', 'remove one'],
  ],
  async run({ args, config, io }) {
    const [sub, rest] = subcommand(args, 'guardrails', SUBCOMMANDS);
    const { values } = parseOptions(rest, {
      org: { type: 'string' },
      file: { type: 'string' },
      name: { type: 'string' },
      stage: { type: 'string' },
      action: { type: 'string' },
      detector: { type: 'string' },
      pattern: { type: 'string' },
      ...JSON_OPTION,
    });
    const organizationId = requireOption(values.org, 'org');
    const next = sub === 'set' ? await listInFile(requireOption(values.file, 'file')) : undefined;
    return withDatabase(config, async (db) => {
      await asCommand(requireOrganization(db, organizationId));
      const editor: GuardrailEditor = { organizationId, actor: OPERATOR, by: CONSOLE_ACTOR };
      const current = await organizationGuardrails(db, organizationId);
      let list: readonly WireGuardrail[] = current;
      if (sub === 'set') list = next!;
      else if (sub === 'add') {
        const added: WireGuardrail = {
          name: requireOption(values.name, 'name'),
          stage: requireOption(values.stage, 'stage'),
          action: requireOption(values.action, 'action'),
          detector: requireOption(values.detector, 'detector'),
        };
        if (values.pattern !== undefined) added.pattern = values.pattern;
        const at = current.findIndex((g) => g.name === added.name);
        list = at === -1 ? [...current, added] : current.map((g, i) => (i === at ? added : g));
      } else if (sub === 'remove') {
        const name = requireOption(values.name, 'name');
        if (!current.some((g) => g.name === name))
          throw new CommandFailedError(`no guardrail named ${name} in ${organizationId}`);
        list = current.filter((g) => g.name !== name);
      }
      const saved =
        sub === 'list'
          ? current
          : await asCommand(putOrganizationGuardrails(db, editor, { guardrails: list, settings: config.guardrails }));
      const human =
        saved.length === 0
          ? `no guardrails in ${organizationId}`
          : textTable(['NAME', 'STAGE', 'ACTION', 'DETECTOR'], saved.map(row));
      print(io, values.json, human, { data: saved });
      return 0;
    });
  },
};

function row(guardrail: Guardrail): string[] {
  const detector = guardrail.pattern === undefined ? guardrail.detector : `regex:${guardrail.pattern}`;
  return [guardrail.name, guardrail.stage, guardrail.action, detector];
}

/** The file's list: a JSON array of guardrails, or an object holding it in `data` (what GET /guardrails answers). */
async function listInFile(path: string): Promise<WireGuardrail[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`--file ${path}: not a readable JSON file (${(err as Error).message})`);
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { data?: unknown } | null)?.data;
  const fields = ['name', 'stage', 'action', 'detector'] as const;
  if (
    !Array.isArray(list) ||
    !list.every((g) => g !== null && typeof g === 'object' && fields.every((f) => typeof g[f] === 'string'))
  )
    throw new UsageError(`--file ${path}: must hold a list of guardrails, each with name, stage, action and detector`);
  return list as WireGuardrail[];
}
