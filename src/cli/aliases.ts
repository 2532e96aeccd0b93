// `modelgate aliases list|set|delete --org ORG_ID`: an organization's model aliases, for the operator (who acts as its
// owner). Running gateways hear each change from the database and use it with their next request.
import { loadCatalog } from '../catalog/load-catalog.js';
import { OPERATOR } from '../auth/member-roles.js';
import { CONSOLE_ACTOR } from '../services/audit-log.js';
import { requireOrganization } from '../services/organizations.js';
import {
  organizationAliases,
  putOrganizationAlias,
  removeOrganizationAlias,
  type AliasEditor,
} from '../services/organization-aliases.js';
import { toWireAlias } from '../handlers/model-alias-handlers.js';
import { textTable } from './text-table.js';
import { asCommand } from './service-refusals.js';
import {
  JSON_OPTION,
  parseOptions,
  print,
  requireOption,
  subcommand,
  withDatabase,
  type CommandDefinition,
} from './command.js';

const SUBCOMMANDS = ['list', 'set', 'delete'] as const;

export const aliasesCommand: CommandDefinition = {
  name: 'aliases',
  usage: [
    ['aliases list --org ORG_ID [--json]', "an organization's model aliases"],
    [
      'aliases set --org ORG_ID --name N --model MODEL_ID [--description D] [--json]',
      'name a catalog model for the organization (or point the name at another model)',
    ],
    ['aliases delete --org ORG_ID --name N [--json]', 'remove an alias'],
  ],
  async run({ args, config, env, io }) {
    const [sub, rest] = subcommand(args, 'aliases', SUBCOMMANDS);
    const { values } = parseOptions(rest, {
      org: { type: 'string' },
      name: { type: 'string' },
      model: { type: 'string' },
      description: { type: 'string' },
      ...JSON_OPTION,
    });
    const organizationId = requireOption(values.org, 'org');
    return withDatabase(config, async (db) => {
      await asCommand(requireOrganization(db, organizationId));
      const editor: AliasEditor = { organizationId, actor: OPERATOR, by: CONSOLE_ACTOR };
      if (sub === 'list') {
        const aliases = (await organizationAliases(db, organizationId)).map(toWireAlias);
        const human = textTable(
          ['NAME', 'MODEL', 'DESCRIPTION'],
          aliases.map((a) => [a.name, a.model, a.description ?? '']),
        );
        print(io, values.json, human, { data: aliases });
      } else if (sub === 'set') {
        const change = {
          name: requireOption(values.name, 'name'),
          model: requireOption(values.model, 'model'),
          description: values.description,
        };
        const row = await asCommand(putOrganizationAlias(db, editor, { catalog: loadCatalog(env), change }));
        print(io, values.json, `${row.name} → ${row.model} in ${organizationId}`, toWireAlias(row));
      } else {
        const name = requireOption(values.name, 'name');
        await asCommand(removeOrganizationAlias(db, editor, name));
        print(io, values.json, `removed alias ${name} from ${organizationId}`, { name, deleted: true });
      }
      return 0;
    });
  },
};
