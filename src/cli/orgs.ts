// `modelgate orgs create|list|members|add-member|remove-member|invitations|budget`: organizations, their members,
// pending invitations and budgets, for the operator
// (who stands in for an owner: auth/member-roles.ts). Removing a member revokes its keys of the organization; the
// running gateway hears of it through the database and refuses them at once.
import { CONSOLE_ACTOR } from '../services/audit-log.js';
import type { MemberRole } from '../db/tables/memberships.js';
import { OPERATOR } from '../auth/member-roles.js';
import { listOrganizationsOfUser } from '../repositories/organizations.js';
import {
  checkRole,
  createOrganization,
  membersFor,
  putMember,
  removeMember,
  requireOrganization,
} from '../services/organizations.js';
import { asCommand } from './service-refusals.js';
import {
  JSON_OPTION,
  parseOptions,
  print,
  requireEmail,
  requireOption,
  requireUser,
  subcommand,
  UsageError,
  withDatabase,
  type CommandDefinition,
} from './command.js';
import { textTable } from './text-table.js';
import { runInvitations } from './org-invitations.js';
import {
  memberBudget,
  organizationBudget,
  parseBudget,
  setMemberBudget,
  setOrganizationBudget,
  type BudgetView,
} from '../services/budgets.js';
import type { BudgetRule } from '../auth/principal.js';

/** --limit/--reset set a budget, --clear removes it, neither reads it. */
function budgetChange(values: {
  limit?: string;
  reset?: string;
  clear?: boolean;
}): { budget: BudgetRule | null } | undefined {
  if (values.clear) {
    if (values.limit !== undefined) throw new UsageError('--clear and --limit cannot be combined');
    return { budget: null };
  }
  if (values.limit === undefined) {
    if (values.reset !== undefined) throw new UsageError('--reset needs --limit');
    return undefined;
  }
  const limit = Number(values.limit);
  if (values.limit.trim() === '' || !Number.isFinite(limit) || limit < 0)
    throw new UsageError(`--limit must be a non-negative amount of USD, got "${values.limit}"`);
  try {
    return { budget: parseBudget({ limit_usd: limit, reset: values.reset }) };
  } catch {
    throw new UsageError(`--reset must be daily, weekly, monthly or never, got "${values.reset}"`);
  }
}

function budgetText(whose: string, view: BudgetView): string {
  if (view.limit_usd === null) return `${whose} has no budget`;
  const resets = view.resets_at === null ? 'never resets' : `resets at ${view.resets_at}`;
  return `${whose}: budget ${view.limit_usd} USD (${view.reset}), spent ${view.spent_usd} USD, ${view.remaining_usd} USD left, ${resets}`;
}

const SUBCOMMANDS = ['create', 'list', 'members', 'add-member', 'remove-member', 'invitations', 'budget'] as const;
const INVITATION_SUBCOMMANDS = ['list', 'revoke'] as const;

function roleOption(value: string | undefined): MemberRole {
  const role = value ?? 'member';
  try {
    checkRole(role);
  } catch {
    throw new UsageError(`--role must be owner, admin or member, got "${role}"`);
  }
  return role;
}

export const orgsCommand: CommandDefinition = {
  name: 'orgs',
  usage: [
    ['orgs create --name N --owner EMAIL [--json]', 'create an organization with its first owner'],
    ['orgs list --email E [--json]', "list a user's organizations (the personal one first) and roles"],
    ['orgs members --id ORG_ID [--json]', "list an organization's members"],
    [
      'orgs add-member --id ORG_ID --email E [--role owner|admin|member] [--json]',
      "add a member, or change a member's role (default: member)",
    ],
    ['orgs remove-member --id ORG_ID --email E [--json]', 'remove a member and revoke its keys of the organization'],
    ['orgs invitations list --id ORG_ID [--json]', "list an organization's pending invitations (never a token)"],
    ['orgs invitations revoke --id ORG_ID --invitation INV_ID [--json]', 'revoke a pending invitation'],
    [
      'orgs budget --id ORG_ID [--email E] [--limit USD [--reset daily|weekly|monthly|never] | --clear] [--json]',
      "show, set or clear the organization's budget (or, with --email, that member's)",
    ],
  ],
  async run({ args, config, io }) {
    const [sub, afterSub] = subcommand(args, 'orgs', SUBCOMMANDS);
    const [invitationSub, rest] =
      sub === 'invitations' ? subcommand(afterSub, 'orgs invitations', INVITATION_SUBCOMMANDS) : [undefined, afterSub];
    const { values } = parseOptions(rest, {
      name: { type: 'string' },
      owner: { type: 'string' },
      email: { type: 'string' },
      id: { type: 'string' },
      role: { type: 'string' },
      invitation: { type: 'string' },
      limit: { type: 'string' },
      reset: { type: 'string' },
      clear: { type: 'boolean' },
      ...JSON_OPTION,
    });
    const json = values.json;
    switch (sub) {
      case 'invitations':
        return runInvitations(
          { sub: invitationSub ?? 'list', id: values.id, invitation: values.invitation, json },
          config,
          io,
        );
      case 'create': {
        const name = requireOption(values.name, 'name').trim();
        if (name === '') throw new UsageError('--name must not be empty');
        const ownerEmail = requireEmail(values.owner);
        return withDatabase(config, async (db) => {
          const owner = await requireUser(db, ownerEmail);
          const org = await asCommand(createOrganization(db, { name, ownerUserId: owner.id, by: CONSOLE_ACTOR }));
          print(io, json, `created organization ${org.id} (${org.name}), owner ${ownerEmail}`, {
            id: org.id,
            name: org.name,
            owner: ownerEmail,
          });
          return 0;
        });
      }
      case 'list': {
        const email = requireEmail(values.email);
        return withDatabase(config, async (db) => {
          const user = await requireUser(db, email);
          const orgs = await listOrganizationsOfUser(db, user.id);
          const human = textTable(
            ['ORG ID', 'NAME', 'PERSONAL', 'ROLE'],
            orgs.map((o) => [o.id, o.name, o.personal ? 'yes' : 'no', o.role]),
          );
          print(
            io,
            json,
            human,
            orgs.map((o) => ({ id: o.id, name: o.name, personal: o.personal, role: o.role })),
          );
          return 0;
        });
      }
      case 'members': {
        const id = requireOption(values.id, 'id');
        return withDatabase(config, async (db) => {
          const org = await asCommand(requireOrganization(db, id));
          const members = await membersFor(db, OPERATOR, org.id);
          const human = textTable(
            ['USER ID', 'EMAIL', 'ROLE', 'SINCE'],
            members.map((m) => [m.user_id, m.email, m.role, m.created_at.toISOString()]),
          );
          print(
            io,
            json,
            human,
            members.map((m) => ({ user_id: m.user_id, email: m.email, role: m.role })),
          );
          return 0;
        });
      }
      case 'add-member': {
        const id = requireOption(values.id, 'id');
        const email = requireEmail(values.email);
        const role = roleOption(values.role);
        return withDatabase(config, async (db) => {
          const user = await requireUser(db, email);
          const member = await asCommand(
            putMember(db, OPERATOR, {
              organizationId: id,
              userId: user.id,
              role,
              by: CONSOLE_ACTOR,
              now: new Date(),
            }),
          );
          print(io, json, `${email} is ${member.role} of ${id}`, { id, email, role: member.role });
          return 0;
        });
      }
      case 'remove-member': {
        const id = requireOption(values.id, 'id');
        const email = requireEmail(values.email);
        return withDatabase(config, async (db) => {
          const user = await requireUser(db, email);
          await asCommand(
            removeMember(db, OPERATOR, {
              organizationId: id,
              userId: user.id,
              now: new Date(),
              by: CONSOLE_ACTOR,
            }),
          );
          print(io, json, `removed ${email} from ${id} (its keys there are revoked)`, { id, email, removed: true });
          return 0;
        });
      }
      case 'budget': {
        const id = requireOption(values.id, 'id');
        const change = budgetChange(values);
        const email = values.email === undefined ? undefined : requireEmail(values.email);
        return withDatabase(config, async (db) => {
          const now = new Date();
          const userId = email === undefined ? undefined : (await requireUser(db, email)).id;
          const view = await asCommand(
            userId === undefined
              ? change === undefined
                ? organizationBudget(db, id, now)
                : setOrganizationBudget(db, OPERATOR, {
                    organizationId: id,
                    budget: change.budget,
                    now,
                    by: CONSOLE_ACTOR,
                  })
              : change === undefined
                ? memberBudget(db, OPERATOR, { organizationId: id, userId, now })
                : setMemberBudget(db, OPERATOR, {
                    organizationId: id,
                    userId,
                    budget: change.budget,
                    now,
                    by: CONSOLE_ACTOR,
                  }),
          );
          const whose = email === undefined ? `organization ${id}` : `${email} in ${id}`;
          print(io, json, budgetText(whose, view), { id, ...(email ? { email } : {}), budget: view });
          return 0;
        });
      }
    }
  },
};
