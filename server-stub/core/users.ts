// Reading a user with roles and permissions, and the checks that refuse an account.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../store/schema.js';
import { now } from '../store/columns.js';
import type { RequestUser } from './context.js';
import { tableTopic, type Invalidation } from './invalidation.js';

export const MSG_NOT_EFFECTIVE = '账号尚未生效';
export const MSG_DELETED = '账号已删除，尚未生效';
export const MSG_DISABLED = '账号已停用，请联系管理员';
export const MSG_EXPIRED = '账号已过期';

export async function loadUser(db: Kysely<Database>, userId: number) {
  const user = await db.selectFrom('sys_user').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user) return null;
  const roles = await db
    .selectFrom('sys_user_role')
    .innerJoin('sys_role', 'sys_role.id', 'sys_user_role.role_id')
    .select(['sys_role.id', 'sys_role.role_key'])
    .where('sys_user_role.user_id', '=', userId)
    .execute();
  const perms = roles.length
    ? await db.selectFrom('sys_role_permission').select('permission').where('role_id', 'in', roles.map((r) => r.id)).execute()
    : [];
  return { user, roles: roles.map((r) => r.role_key), permissions: [...new Set(perms.map((p) => p.permission))] };
}

export type LoadedUser = NonNullable<Awaited<ReturnType<typeof loadUser>>>;

/** What loadUser reads: a committed write to any of them drops every user held (store/watch.ts). */
export const USER_TABLES = ['sys_user', 'sys_user_role', 'sys_role', 'sys_role_permission'] as const;

/** Users with roles and permissions as loadUser reads them, held in memory per id (issue 36; app.ctx.users). */
export interface UserCache {
  /** The user (shared: never to be changed by a caller), or null when there is none. */
  load(userId: number): Promise<LoadedUser | null>;
}

export function userCache(db: Kysely<Database>, bus: Invalidation): UserCache {
  const held = bus.memo<number, LoadedUser | null>(USER_TABLES.map(tableTopic), { max: 10_000 });
  return { load: (userId) => held.get(userId, () => loadUser(db, userId)) };
}

/** Why this account may not sign in or keep a session, or null when it may. */
export function refusal(user: { deleted: number; effective_from: string | null; status?: number; effective_until?: string | null }): string | null {
  if (user.deleted) return MSG_DELETED;
  if (user.status === 1) return MSG_DISABLED;
  const time = now();
  if (user.effective_from && user.effective_from > time) return `${MSG_NOT_EFFECTIVE}（生效时间 ${user.effective_from}）`;
  if (user.effective_until && user.effective_until <= time) return `${MSG_EXPIRED}（失效时间 ${user.effective_until}）`;
  return null;
}

export function toRequestUser(loaded: LoadedUser): RequestUser {
  return {
    id: loaded.user.id,
    username: loaded.user.username,
    nickName: loaded.user.nick_name,
    roles: loaded.roles,
    permissions: loaded.permissions,
  };
}

/** A sys_user row's public fields as every answer names them (never a password or its hash). */
export function userFields(u: Pick<Selectable<Database['sys_user']>, 'id' | 'username' | 'nick_name' | 'phone_number' | 'email' | 'avatar'>) {
  return { id: u.id, username: u.username, nickName: u.nick_name, phoneNumber: u.phone_number, email: u.email, avatar: u.avatar };
}
