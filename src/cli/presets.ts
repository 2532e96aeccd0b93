// `modelgate presets list|show|create|delete --org ORG_ID`: an organization's presets, for the operator (who acts as
// its owner). Each create of a slug saves its next version; running gateways hear each change from the database.
import { readFileSync } from 'node:fs';
import { loadCatalog } from '../catalog/load-catalog.js';
import { OPERATOR } from '../auth/member-roles.js';
import { CONSOLE_ACTOR } from '../services/audit-log.js';
import { requireOrganization } from '../services/organizations.js';
import {
  organizationPresets,
  presetVersion,
  presetVersions,
  removePreset,
  savePreset,
  type PresetEditor,
} from '../services/presets.js';
import { toWirePreset } from '../handlers/preset-handlers.js';
import type { PresetSettings } from '../core/preset.js';
import { textTable } from './text-table.js';
import { asCommand } from './service-refusals.js';
import {
  JSON_OPTION,
  parseOptions,
  print,
  requireOption,
  subcommand,
  UsageError,
  withDatabase,
  type CommandDefinition,
} from './command.js';

const SUBCOMMANDS = ['list', 'show', 'create', 'delete'] as const;

function numberOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number))
    throw new UsageError(`--${name} must be a number, got "${value}"`);
  return number;
}

/** The settings: the JSON file's (`--file`), with the flags given on top. */
function settingsOf(values: Record<string, string | boolean | undefined>): PresetSettings {
  let settings: PresetSettings = {};
  if (typeof values.file === 'string') {
    try {
      settings = JSON.parse(readFileSync(values.file, 'utf8')) as PresetSettings;
    } catch (err) {
      throw new UsageError(`--file ${values.file}: ${(err as Error).message}`);
    }
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
      throw new UsageError(`--file ${values.file} must hold a JSON object (the preset's settings)`);
  }
  const flags: PresetSettings = {
    model: values.model as string | undefined,
    system: values.system as string | undefined,
    temperature: numberOption(values.temperature as string | undefined, 'temperature'),
    max_tokens: numberOption(values['max-tokens'] as string | undefined, 'max-tokens'),
  };
  for (const [key, value] of Object.entries(flags)) if (value !== undefined) Object.assign(settings, { [key]: value });
  return settings;
}

export const presetsCommand: CommandDefinition = {
  name: 'presets',
  usage: [
    ['presets list --org ORG_ID [--json]', "an organization's presets (the latest version of each)"],
    ['presets show --org ORG_ID --slug S [--version N] [--json]', 'a preset with its versions, or one version'],
    [
      'presets create --org ORG_ID --slug S [--file SETTINGS.json] [--model M] [--system TEXT] [--temperature T] ' +
        '[--max-tokens N] [--description D] [--json]',
      'save a preset, or the next version of the slug (used as model "@preset/S")',
    ],
    ['presets delete --org ORG_ID --slug S [--json]', 'remove a preset with every version'],
  ],
  async run({ args, config, env, io }) {
    const [sub, rest] = subcommand(args, 'presets', SUBCOMMANDS);
    const { values } = parseOptions(rest, {
      org: { type: 'string' },
      slug: { type: 'string' },
      version: { type: 'string' },
      file: { type: 'string' },
      model: { type: 'string' },
      system: { type: 'string' },
      temperature: { type: 'string' },
      'max-tokens': { type: 'string' },
      description: { type: 'string' },
      ...JSON_OPTION,
    });
    const organizationId = requireOption(values.org, 'org');
    return withDatabase(config, async (db) => {
      await asCommand(requireOrganization(db, organizationId));
      const editor: PresetEditor = { organizationId, actor: OPERATOR, by: CONSOLE_ACTOR };
      if (sub === 'list') {
        const presets = (await organizationPresets(db, organizationId)).map(toWirePreset);
        const human = textTable(
          ['SLUG', 'VERSION', 'MODEL', 'DESCRIPTION'],
          presets.map((p) => [
            p.slug,
            String(p.version),
            p.preset.model ?? p.preset.models?.[0] ?? '',
            p.description ?? '',
          ]),
        );
        print(io, values.json, human, { data: presets });
      } else if (sub === 'show') {
        const slug = requireOption(values.slug, 'slug');
        const version = numberOption(values.version, 'version');
        if (version !== undefined) {
          const row = await asCommand(presetVersion(db, { organizationId, slug, version }));
          print(io, values.json, JSON.stringify(toWirePreset(row), null, 2), toWirePreset(row));
        } else {
          const rows = await asCommand(presetVersions(db, { organizationId, slug }));
          const shown = {
            ...toWirePreset(rows[0]),
            versions: rows.map((r) => ({
              version: r.version,
              description: r.description,
              created_at: r.created_at.toISOString(),
            })),
          };
          print(io, values.json, JSON.stringify(shown, null, 2), shown);
        }
      } else if (sub === 'create') {
        const save = {
          slug: requireOption(values.slug, 'slug'),
          description: values.description,
          preset: settingsOf(values),
        };
        const row = await asCommand(savePreset(db, editor, { catalog: loadCatalog(env), save }));
        print(io, values.json, `@preset/${row.slug} version ${row.version} in ${organizationId}`, toWirePreset(row));
      } else {
        const slug = requireOption(values.slug, 'slug');
        await asCommand(removePreset(db, editor, slug));
        print(io, values.json, `removed preset ${slug} from ${organizationId}`, { slug, deleted: true });
      }
      return 0;
    });
  },
};
