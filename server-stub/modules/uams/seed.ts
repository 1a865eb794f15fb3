// Seeding from schemas/menus/roles.json: roles and their permissions, one account per role (core/startup.ts runs it
// once per start under the start lock; it writes only what is new).
import type { Kysely } from 'kysely';
import type { SeedContext } from '../../core/module.js';
import { generatePassword, hashPassword, verifyPassword } from '../../core/passwords.js';
import { now } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';

interface RoleDecl {
  roleKey: string;
  roleName: string;
  /** ROLE_TYPE of the role (the dictionary's four types); the roleKey when not given */
  roleType?: string;
  permissions: string[];
  demoUser?: { username: string; nickName: string; phoneNumber?: string; email?: string };
}

type ShippedRole = Pick<RoleDecl, 'roleKey' | 'roleName' | 'roleType' | 'permissions'>;

/**
 * Roles and their permissions as schemas/menus/roles.json ships them: all of them on a store that never recorded
 * them; afterwards only what the shipped file changed since the store last saw it (a permission added to or taken
 * from a role in the file), so what admins changed in the store stays, and a restart with the same file writes nothing.
 */
async function applyRoles(db: Kysely<Database>, roles: ShippedRole[], before: ShippedRole[] | null): Promise<void> {
  const old = new Map((before ?? []).map((r) => [r.roleKey, r]));
  for (const r of roles) {
    const was = old.get(r.roleKey);
    let role = await db.selectFrom('sys_role').select('id').where('role_key', '=', r.roleKey).executeTakeFirst();
    if (!role) role = await db.insertInto('sys_role').values({ role_key: r.roleKey, role_name: r.roleName, role_type: r.roleType ?? r.roleKey, create_time: now() }).returning('id').executeTakeFirstOrThrow();
    else if (!was || was.roleName !== r.roleName) await db.updateTable('sys_role').set({ role_name: r.roleName }).where('id', '=', role.id).execute();
    const roleId = role.id;
    let add = r.permissions;
    if (was) {
      const gone = was.permissions.filter((p) => !r.permissions.includes(p));
      if (gone.length) await db.deleteFrom('sys_role_permission').where('role_id', '=', roleId).where('permission', 'in', gone).execute();
      add = r.permissions.filter((p) => !was.permissions.includes(p));
    } else {
      // a role the store has no record of shipping: exactly the file's permissions
      await db.deleteFrom('sys_role_permission').where('role_id', '=', roleId).execute();
    }
    if (!add.length) continue;
    const held = new Set((await db.selectFrom('sys_role_permission').select('permission').where('role_id', '=', roleId).execute()).map((x) => x.permission));
    const fresh = [...new Set(add)].filter((p) => !held.has(p));
    if (fresh.length) await db.insertInto('sys_role_permission').values(fresh.map((permission) => ({ role_id: roleId, permission }))).execute();
  }
}

export async function seedRolesAndUsers(db: Kysely<Database>, { schemas, config, generated, first, shipped }: SeedContext): Promise<void> {
  const roles: RoleDecl[] = schemas.roles?.roles ?? [];
  const decl = roles.map(({ roleKey, roleName, roleType, permissions }) => ({ roleKey, roleName, ...(roleType ? { roleType } : {}), permissions }));
  const change = await shipped('roles', decl);
  if (change.changed) await applyRoles(db, decl, change.before);
  const newRoles = new Set(change.changed ? roles.filter((r) => !change.before?.some((b) => b.roleKey === r.roleKey)).map((r) => r.roleKey) : []);

  // One account per role, made on the store's first start (or when the file ships a new role). admin's password:
  // ADMIN_PASSWORD (applied on every start when set: written only when the stored one differs) or generated once.
  const demoPassword = config.demoPassword ?? null;
  for (const r of roles) {
    if (!r.demoUser) continue;
    const isAdmin = r.roleKey === 'sys_admin';
    const wanted = isAdmin ? config.adminPassword : demoPassword;
    const existing = await db.selectFrom('sys_user').select(['id', 'password_hash']).where('username', '=', r.demoUser.username).executeTakeFirst();
    if (existing) {
      if (wanted && !(await verifyPassword(wanted, existing.password_hash))) {
        await db.updateTable('sys_user').set({ password_hash: await hashPassword(wanted), failed_logins: 0, locked_until: null }).where('id', '=', existing.id).execute();
      }
      continue;
    }
    if (!first && !newRoles.has(r.roleKey)) continue;
    const password = wanted ?? generatePassword();
    if (!wanted) generated.push({ username: r.demoUser.username, password });
    const user = await db
      .insertInto('sys_user')
      .values({
        username: r.demoUser.username,
        nick_name: r.demoUser.nickName,
        phone_number: r.demoUser.phoneNumber ?? null,
        email: r.demoUser.email ?? null,
        avatar: null,
        password_hash: await hashPassword(password),
        deleted: 0,
        effective_from: null,
        failed_logins: 0,
        locked_until: null,
        create_time: now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const role = await db.selectFrom('sys_role').select('id').where('role_key', '=', r.roleKey).executeTakeFirstOrThrow();
    await db.insertInto('sys_user_role').values({ user_id: user.id, role_id: role.id }).execute();
  }
}
