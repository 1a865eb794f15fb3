// Accounts from the company's identity (issue 38 item 3). The first sign-in through LDAP or OIDC makes the account
// (its name, e-mail and phone from the directory or the claims); every sign-in applies 身份映射 again: the person's
// roles become exactly those their groups map to, their department the first mapped one, so leaving a group loses
// the role at the next sign-in (and the sessions made with it end). What stays the console's own: an account an
// admin disabled, deleted or limited in time stays so whatever the provider says (the caller checks refusal()); a
// local account of the same name is never taken over (the person is refused, the admin decides); the mapping can
// only name roles the admin who saved it could grant by hand (checked at the mapping's save).
import type { Kysely, Selectable } from 'kysely';
import type { Database, UserTable } from '../../store/schema.js';
import { now } from '../../store/columns.js';
import { BizError } from '../../core/envelope.js';
import { SSO_ERRORS } from '../../../common/sso.js';
import { unmatchableHash } from '../../core/passwords.js';
import { declareTable, timestamps, type TableRow } from '../../core/tables.js';

export type Provider = 'ldap' | 'oidc';

/** 身份映射 (schemas/pages/identityMap.page.json): a group at the provider grants a role and/or a department. */
export const identityMaps = declareTable({
  name: 'sys_identity_map',
  migration: '20261208_03_sys_identity_map',
  columns: {
    id: { type: 'id' },
    /** 'ldap', 'oidc' or '*' (both) */
    provider: { type: 'varchar(16)', notNull: true },
    groupName: { type: 'varchar(512)', notNull: true },
    roleKey: { type: 'varchar(32)' },
    deptId: { type: 'integer' },
    remark: { type: 'varchar(500)' },
    ...timestamps,
  },
});

declare module '../../store/schema.js' {
  interface Database {
    sys_identity_map: TableRow<typeof identityMaps>;
  }
}

/** Who the provider says signed in, as the console needs it. */
export interface ExternalIdentity {
  provider: Provider;
  subject: string;
  username: string;
  name: string;
  email: string | null;
  phone: string | null;
  groups: string[];
}

export const MSG_NO_ROLE = SSO_ERRORS.no_role;
export const msgLocalClash = (username: string) => `本系统已有同名的本地账号「${username}」，不能用企业账号登录，请联系管理员`;
export const msgOtherIdentity = (username: string) => `本系统的账号「${username}」已关联另一个企业身份，不能再用此身份登录，请联系管理员`;
export const MSG_ROLES_CHANGED = '您所在的组已变更，权限随之更新，请重新登录';

/** A phone number from the provider, when it looks like one and no other account signs in with it; else null. */
async function usablePhone(db: Kysely<Database>, phone: string | null, userId: number): Promise<string | null> {
  const p = phone?.replace(/[\s-]/g, '') ?? '';
  if (!/^\+?\d{5,20}$/.test(p)) return null;
  const taken = await db
    .selectFrom('sys_user')
    .select('id')
    .where('id', '!=', userId)
    .where((eb) => eb.or([eb('username', '=', p), eb('phone_number', '=', p)]))
    .executeTakeFirst();
  return taken ? null : p;
}

/** The mapped roles (keys) and department of these groups (names compared without case). */
export async function mappedAccess(db: Kysely<Database>, provider: Provider, groups: string[]): Promise<{ roleKeys: string[]; deptId: number | null }> {
  const wanted = new Set(groups.map((g) => g.trim().toLowerCase()));
  const rows = await db.selectFrom('sys_identity_map').selectAll().where('provider', 'in', [provider, '*']).orderBy('id').execute();
  const hits = rows.filter((r) => wanted.has(r.group_name.trim().toLowerCase()));
  const roleKeys = [...new Set(hits.map((r) => r.role_key).filter((k): k is string => !!k))];
  return { roleKeys, deptId: hits.find((r) => r.dept_id != null)?.dept_id ?? null };
}

/**
 * The account for this identity, made or brought up to date, with the mapping applied. Answers the account,
 * whether roles were taken away (the caller ends the person's other sessions then) and how many it holds now (none:
 * the caller refuses the sign-in with MSG_NO_ROLE, after the roles it lost are gone).
 */
export async function provision(db: Kysely<Database>, id: ExternalIdentity): Promise<{ user: Selectable<UserTable>; lostRoles: boolean; roleCount: number }> {
  const { roleKeys, deptId } = await mappedAccess(db, id.provider, id.groups);
  return db.transaction().execute(async (trx) => {
    const time = now();
    const link = await trx.selectFrom('sys_user_identity').select('user_id').where('provider', '=', id.provider).where('subject', '=', id.subject).executeTakeFirst();
    let user = link ? await trx.selectFrom('sys_user').selectAll().where('id', '=', link.user_id).executeTakeFirst() : undefined;
    if (!user) {
      const same = await trx.selectFrom('sys_user').selectAll().where('username', '=', id.username).executeTakeFirst();
      // a local account (or another provider's) of the same name is not this person's to take; nor is an account
      // of this provider already linked to another identity there (a name reused or renamed at the provider)
      if (same && same.source !== id.provider) throw new BizError(msgLocalClash(id.username));
      if (same && (await trx.selectFrom('sys_user_identity').select('subject').where('user_id', '=', same.id).where('provider', '=', id.provider).executeTakeFirst()))
        throw new BizError(msgOtherIdentity(id.username));
      // a name someone signs in with (another account's phone number) is not this person's either
      if (!same && (await trx.selectFrom('sys_user').select('id').where('phone_number', '=', id.username).executeTakeFirst())) throw new BizError(msgLocalClash(id.username));
      if (!same && !roleKeys.length) throw new BizError(MSG_NO_ROLE);
      user =
        same ??
        (await trx
          .insertInto('sys_user')
          .values({
            username: id.username,
            nick_name: id.name || id.username,
            email: id.email,
            phone_number: null,
            avatar: null,
            password_hash: unmatchableHash(),
            deleted: 0,
            effective_from: null,
            failed_logins: 0,
            locked_until: null,
            create_time: time,
            source: id.provider,
            dept_id: deptId,
          })
          .returningAll()
          .executeTakeFirstOrThrow());
      await trx.insertInto('sys_user_identity').values({ provider: id.provider, subject: id.subject, user_id: user.id, create_time: time, last_login: time }).execute();
    } else {
      await trx.updateTable('sys_user_identity').set({ last_login: time }).where('provider', '=', id.provider).where('subject', '=', id.subject).execute();
    }
    // what the provider says of the person, each time (the console's own state — status, dates — untouched); a phone
    // number is a name one signs in with: taken only when it looks like one and no other account signs in with it
    const phone = await usablePhone(trx, id.phone, user.id);
    await trx
      .updateTable('sys_user')
      .set({ nick_name: id.name || user.nick_name, email: id.email ?? user.email, phone_number: phone ?? user.phone_number, ...(deptId != null ? { dept_id: deptId } : {}), update_time: time })
      .where('id', '=', user.id)
      .execute();
    const roles = roleKeys.length ? await trx.selectFrom('sys_role').select(['id', 'role_key']).where('role_key', 'in', roleKeys).execute() : [];
    const held = await trx.selectFrom('sys_user_role').select('role_id').where('user_id', '=', user.id).execute();
    const want = new Set(roles.map((r) => r.id));
    const gone = held.filter((h) => !want.has(h.role_id)).map((h) => h.role_id);
    const added = [...want].filter((r) => !held.some((h) => h.role_id === r));
    if (gone.length) await trx.deleteFrom('sys_user_role').where('user_id', '=', user.id).where('role_id', 'in', gone).execute();
    if (added.length)
      await trx
        .insertInto('sys_user_role')
        .values(added.map((role_id) => ({ user_id: user!.id, role_id })))
        .execute();
    const fresh = await trx.selectFrom('sys_user').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    return { user: fresh, lostRoles: gone.length > 0, roleCount: want.size };
  });
}
