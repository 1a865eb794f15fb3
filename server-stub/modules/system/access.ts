// What every change under 系统管理 checks before it writes (issue 21 "Security"): the caller may only hand out
// permissions they hold, the last active administrator stays, and nobody disables or deletes themselves.
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { BizError } from '../../core/envelope.js';
import { ALL_PERMISSIONS, hasPermission } from '../../core/permissions.js';
import { now } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';

export const ADMIN_ROLE = 'sys_admin';

/** What the sign-in page tells a user whose session an administrator ended (core/sessions.ts withEndings). */
export const SIGNED_OUT = {
  disabled: '账号已停用，请联系管理员',
  deleted: '账号已删除，请联系管理员',
  roles: '权限已变更，请重新登录',
  password: '密码已被管理员重置，请用新密码登录',
  forced: '已被管理员强制退出，请重新登录',
} as const;
export const MSG_LAST_ADMIN = '不能移除最后一个管理员：系统至少需要一个可用的管理员账号';
export const MSG_NOT_YOURS = (perm: string) => `不能授予自己没有的权限：${perm}`;

/** Refuses unless the caller holds every one of `perms` (the permission switch off: anyone may). */
export function assertHolds(req: FastifyRequest, perms: Iterable<string>, message?: string): void {
  if (!req.server.ctx.config.permissionSwitch) return;
  const held = req.user?.permissions ?? [];
  for (const p of perms) if (!hasPermission(held, p)) throw new BizError(message ?? MSG_NOT_YOURS(p), 403);
}

export const MSG_NOT_SHOWN = (name: string) => `不能授予自己看不到的菜单：${name}`;

/**
 * Refuses unless every one of `entries` shows in the caller's own menu (their roles' sys_role_menu; an
 * administrator sees all). For entries without a permission string, which assertHolds cannot judge.
 */
export async function assertSees(req: FastifyRequest, entries: Array<{ key: string; entry: { name: string } }>): Promise<void> {
  if (!entries.length || !req.server.ctx.config.permissionSwitch) return;
  const me = req.user;
  if (!me || hasPermission(me.permissions, ALL_PERMISSIONS) || me.roles.includes(ADMIN_ROLE)) return;
  const mine = me.roles.length ? new Set((await req.server.ctx.db.selectFrom('sys_role_menu').select('menu_key').where('role_key', 'in', me.roles).execute()).map((r) => r.menu_key)) : new Set<string>();
  for (const e of entries) if (!mine.has(e.key)) throw new BizError(MSG_NOT_SHOWN(e.entry.name), 403);
}

/** The permission strings of roles, by role id. */
export async function permissionsOfRoles(db: Kysely<Database>, roleIds: number[]): Promise<string[]> {
  if (!roleIds.length) return [];
  const rows = await db.selectFrom('sys_role_permission').select('permission').where('role_id', 'in', roleIds).execute();
  return [...new Set(rows.map((r) => r.permission))];
}

/**
 * Refuses unless the caller holds everything `userId`'s roles grant: one may only edit, switch off, delete or reset
 * the password of accounts one could have made (a user manager cannot act on an administrator).
 */
export async function assertCanManage(req: FastifyRequest, db: Kysely<Database>, userId: number): Promise<void> {
  const theirs = await db.selectFrom('sys_user_role').select('role_id').where('user_id', '=', userId).execute();
  assertHolds(req, await permissionsOfRoles(db, theirs.map((r) => r.role_id)));
}

/** Ids of the users who can sign in now and hold the administrator role. */
export async function activeAdmins(db: Kysely<Database>): Promise<number[]> {
  const t = now();
  const rows = await db
    .selectFrom('sys_user')
    .innerJoin('sys_user_role', 'sys_user_role.user_id', 'sys_user.id')
    .innerJoin('sys_role', 'sys_role.id', 'sys_user_role.role_id')
    .select('sys_user.id')
    .where('sys_role.role_key', '=', ADMIN_ROLE)
    .where('sys_user.deleted', '=', 0)
    .where('sys_user.status', '=', 0)
    .where((eb) => eb.or([eb('sys_user.effective_until', 'is', null), eb('sys_user.effective_until', '>', t)]))
    .where((eb) => eb.or([eb('sys_user.effective_from', 'is', null), eb('sys_user.effective_from', '<=', t)]))
    .execute();
  return [...new Set(rows.map((r) => r.id))];
}

/** Refuses a change that leaves `userId` no longer an active administrator when they are the last one. */
export async function keepLastAdmin(db: Kysely<Database>, userId: number, stillAdmin: boolean): Promise<void> {
  if (stillAdmin) return;
  const admins = await activeAdmins(db);
  if (admins.includes(userId) && admins.length <= 1) throw new BizError(MSG_LAST_ADMIN);
}
