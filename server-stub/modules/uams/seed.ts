// Seeding from schemas/menus/roles.json on every start: roles and their permissions, one account per role.
import type { Kysely } from 'kysely';
import type { SeedContext } from '../../core/module.js';
import { generatePassword, hashPassword } from '../../core/passwords.js';
import { now } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';

interface RoleDecl {
  roleKey: string;
  roleName: string;
  permissions: string[];
  demoUser?: { username: string; nickName: string; phoneNumber?: string; email?: string };
}

export async function seedRolesAndUsers(db: Kysely<Database>, { schemas, config, generated }: SeedContext): Promise<void> {
  const roles: RoleDecl[] = schemas.roles?.roles ?? [];

  // Roles and permissions follow the declaration on every start.
  for (const r of roles) {
    let role = await db.selectFrom('sys_role').select('id').where('role_key', '=', r.roleKey).executeTakeFirst();
    if (!role) role = await db.insertInto('sys_role').values({ role_key: r.roleKey, role_name: r.roleName }).returning('id').executeTakeFirstOrThrow();
    else await db.updateTable('sys_role').set({ role_name: r.roleName }).where('id', '=', role.id).execute();
    await db.deleteFrom('sys_role_permission').where('role_id', '=', role.id).execute();
    if (r.permissions.length) await db.insertInto('sys_role_permission').values(r.permissions.map((permission) => ({ role_id: role!.id, permission }))).execute();
  }

  // One account per role. admin's password: ADMIN_PASSWORD (applied on every start when set) or generated once.
  const demoPassword = config.demoPassword ?? null;
  for (const r of roles) {
    if (!r.demoUser) continue;
    const isAdmin = r.roleKey === 'sys_admin';
    const wanted = isAdmin ? config.adminPassword : demoPassword;
    const existing = await db.selectFrom('sys_user').select('id').where('username', '=', r.demoUser.username).executeTakeFirst();
    if (existing) {
      if (wanted) await db.updateTable('sys_user').set({ password_hash: await hashPassword(wanted), failed_logins: 0, locked_until: null }).where('id', '=', existing.id).execute();
      continue;
    }
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
