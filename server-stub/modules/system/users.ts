// 用户管理 (issue 21 item 1): the page declaration schemas/pages/user.page.json names the calls, the fields and
// their messages; this file adds what a declaration cannot say — roles assigned in the dialog, an account and
// a phone number unique among sign-in names, an initial password shown once, soft delete, and the security rules
// (access.ts): no granting what one does not hold, no removing the last administrator, nobody disables or
// deletes themselves. Disabling, deleting, resetting a password or taking a role away ends the user's sessions
// on every instance (ctx.sessions); the guard refuses such a user at once anyway (core/users.ts refusal).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { passwordFault } from '../../../common/password-policy.js';
import { assertPermission } from '../../core/auth.js';
import { checkBody, idQuery, requirePage } from '../../core/declarations.js';
import { BizError, ok } from '../../core/envelope.js';
import { listQuerySchema, matchesAny, pageRows } from '../../core/list.js';
import { generatePassword, hashPassword } from '../../core/passwords.js';
import { now } from '../../store/columns.js';
import { MSG_OUT_OF_SCOPE, MSG_SCOPE_WIDEN, usersInScope } from '../../core/org.js';
import { userFields } from '../../core/users.js';
import type { Database } from '../../store/schema.js';
import { ADMIN_ROLE, assertCanManage, assertHolds, keepLastAdmin, permissionsOfRoles, SIGNED_OUT } from './access.js';

export const MSG_USER_NOT_FOUND = '用户不存在';
const MSG_NOT_SELF_DISABLE = '不能停用自己的账号';
const MSG_NOT_SELF_DELETE = '不能删除自己的账号';
export const MSG_DEPT_MISSING = '所选部门不存在，请刷新后重新选择';
export const MSG_POST_MISSING = '所选岗位不存在，请刷新后重新选择';
export const MSG_DEPT_REQUIRED = '请选择部门：您的数据权限不是全部，用户须属于您数据权限内的部门';
export const MSG_GRANT_WIDER = '不能授予超出自己数据权限范围的部门或角色';

const idList = { type: 'array', maxItems: 50, items: { type: ['integer', 'string'], maxLength: 12, pattern: '^[0-9]+$' } } as const;
const listBody = listQuerySchema({
  roleIds: { ...idList, title: '角色' },
  // the side tree's department and those below it
  deptIds: { type: ['array', 'null'], maxItems: 2000, items: { type: 'integer', minimum: 0, maximum: 2147483647 }, title: '部门' },
  // a role's users (角色管理 › 用户)
  roleId: { type: ['integer', 'string', 'null'], maxLength: 12, pattern: '^[0-9]*$', title: '角色' },
  status: { type: ['array', 'integer', 'null'], maxItems: 2, items: { type: 'integer', enum: [0, 1] }, enum: undefined, title: '状态' },
});

type UserRow = Database['sys_user'] extends infer T ? { [K in keyof T]: any } : never;

/** A user as the page shows it: never a password or its hash. */
function answerUser(u: UserRow, roles: Array<{ id: number; role_name: string; role_key: string }>, org: { deptName?: string; posts: Array<{ id: number; name: string }> }) {
  return {
    ...userFields(u),
    deptId: u.dept_id ?? null,
    deptName: org.deptName ?? null,
    postIds: org.posts.map((p) => p.id),
    postNames: org.posts.map((p) => p.name).join('、'),
    status: u.status,
    effectiveFrom: u.effective_from,
    effectiveUntil: u.effective_until,
    mustChangePassword: u.must_change_password === 1,
    remark: u.remark,
    createTime: u.create_time,
    updateTime: u.update_time,
    roleIds: roles.map((r) => r.id),
    roleKeys: roles.map((r) => r.role_key),
    roleNames: roles.map((r) => r.role_name).join('、'),
  };
}

async function rolesOfUsers(db: Kysely<Database>, userIds: number[]) {
  const out = new Map<number, Array<{ id: number; role_name: string; role_key: string }>>();
  if (!userIds.length) return out;
  const rows = await db
    .selectFrom('sys_user_role')
    .innerJoin('sys_role', 'sys_role.id', 'sys_user_role.role_id')
    .select(['sys_user_role.user_id', 'sys_role.id', 'sys_role.role_name', 'sys_role.role_key'])
    .where('sys_user_role.user_id', 'in', userIds)
    .orderBy('sys_role.order_num')
    .orderBy('sys_role.id')
    .execute();
  for (const r of rows) {
    const list = out.get(r.user_id) ?? [];
    list.push({ id: r.id, role_name: r.role_name, role_key: r.role_key });
    out.set(r.user_id, list);
  }
  return out;
}

async function postsOfUsers(db: Kysely<Database>, userIds: number[]) {
  const out = new Map<number, Array<{ id: number; name: string }>>();
  if (!userIds.length) return out;
  const rows = await db
    .selectFrom('sys_user_post')
    .innerJoin('sys_post', 'sys_post.id', 'sys_user_post.post_id')
    .select(['sys_user_post.user_id', 'sys_post.id', 'sys_post.post_name'])
    .where('sys_user_post.user_id', 'in', userIds)
    .orderBy('sys_post.order_num')
    .orderBy('sys_post.id')
    .execute();
  for (const r of rows) out.set(r.user_id, [...(out.get(r.user_id) ?? []), { id: r.id, name: r.post_name }]);
  return out;
}

/** Refuses a name that signs someone else in: login takes an account or a phone number, so both are unique across both. */
async function assertSignInNameFree(db: Kysely<Database>, name: string, label: '账号' | '手机号码', selfId: number | undefined) {
  const clash = await db
    .selectFrom('sys_user')
    .select(['id', 'username'])
    .where((eb) => eb.or([eb('username', '=', name), eb('phone_number', '=', name)]))
    .$if(selfId !== undefined, (q) => q.where('id', '<>', selfId!))
    .executeTakeFirst();
  if (clash) throw new BizError(label === '账号' ? `账号【${name}】已存在` : `手机号码【${name}】已被其他账号使用`);
}

export function userRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  const page = requirePage(app.ctx.schemas.pages, 'user');

  const deptNames = async () => new Map((await app.org.tree()).map((d) => [d.id, d.deptName]));
  const answerAll = async (rows: UserRow[]) => {
    const ids = rows.map((r) => r.id);
    const [roles, postsOf, names] = await Promise.all([rolesOfUsers(db, ids), postsOfUsers(db, ids), deptNames()]);
    return rows.map((r) => answerUser(r, roles.get(r.id) ?? [], { deptName: r.dept_id == null ? undefined : names.get(r.dept_id), posts: postsOf.get(r.id) ?? [] }));
  };
  /** The stored user when the caller's data scope holds them (else 用户不存在: a user outside it is not there for them). */
  const storedInScope = async (req: FastifyRequest, id: number) => {
    const u = await db.selectFrom('sys_user').selectAll().where('id', '=', id).where('deleted', '=', 0).executeTakeFirst();
    if (!u || !app.org.holds(await app.org.scopeOf(req.user), { ownerId: u.id, deptId: u.dept_id })) throw new BizError(MSG_USER_NOT_FOUND);
    return u;
  };

  app.post<{ Body: Record<string, any> }>('/user/list', { config: { perm: 'system:user:list' }, schema: { body: listBody } }, async (req) => {
    const q = req.body ?? {};
    let base = usersInScope(db.selectFrom('sys_user').where('deleted', '=', 0), await app.org.scopeOf(req.user));
    if (Array.isArray(q.deptIds) && q.deptIds.length) base = base.where('dept_id', 'in', q.deptIds as number[]);
    const text = typeof q.search === 'string' ? q.search.trim() : '';
    if (text) base = base.where(matchesAny(text, ['username', 'nick_name', 'phone_number']));
    const statuses = (Array.isArray(q.status) ? q.status : q.status == null ? [] : [q.status]) as number[];
    if (statuses.length) base = base.where('status', 'in', statuses);
    const roleIds = [...((q.roleIds ?? []) as Array<string | number>), ...(q.roleId ? [q.roleId] : [])].map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
    if (roleIds.length) base = base.where('id', 'in', db.selectFrom('sys_user_role').select('user_id').where('role_id', 'in', roleIds));
    const sortable = { username: 'username', nickName: 'nick_name', createTime: 'create_time', status: 'status' };
    const { records, total } = await pageRows(base, q, { sortable, select: (b) => b.selectAll(), then: ['id'], fallback: ['id'] });
    return ok({ records: await answerAll(records), total });
  });

  app.get<{ Querystring: { id: number } }>('/user/get', { config: { perm: 'system:user:list' }, schema: { querystring: idQuery } }, async (req) => {
    const u = await storedInScope(req, req.query.id);
    return ok((await answerAll([u]))[0]);
  });

  // The roles a user dialog offers ({ value, label }, as the role filter reads them too).
  app.get('/role/options', { config: { perm: 'system:user:list' } }, async () => {
    const rows = await db.selectFrom('sys_role').select(['id', 'role_name', 'role_key']).orderBy('order_num').orderBy('id').execute();
    return ok(rows.map((r) => ({ value: String(r.id), label: r.role_name, roleId: r.id, roleName: r.role_name, roleKey: r.role_key })));
  });

  app.post<{ Body: Record<string, any> }>(
    '/user/save',
    { config: { perm: 'system:user:list' }, schema: { body: { type: 'object', properties: { id: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647, title: '编号' }, roleIds: { ...idList, title: '角色' }, postIds: { ...idList, title: '岗位' }, deptId: { type: ['integer', 'null'], minimum: 0, maximum: 2147483647, title: '部门' } } } } },
    async (req) => {
      const body = { ...req.body };
      const id: number | undefined = body.id ?? undefined;
      assertPermission(req, id ? 'system:user:edit' : 'system:user:add');
      const stored = id ? await storedInScope(req, id) : undefined;
      if (stored) await assertCanManage(req, db, stored.id);
      if (stored) body.username = stored.username; // locked in edit
      const rec = checkBody(page, body, { dicts: await app.dicts.current(), applyDefaults: !stored }) as Record<string, any>;
      const username = String(rec.username).trim();
      const phone = rec.phoneNumber ? String(rec.phoneNumber) : null;
      if (rec.effectiveFrom && rec.effectiveUntil && rec.effectiveUntil <= rec.effectiveFrom) throw new BizError('失效时间须晚于生效时间');

      // roles: each must exist; a role the user does not hold yet may be given only by one who holds all it grants
      const roleIds = [...new Set(((rec.roleIds ?? []) as Array<string | number>).map(Number))];
      const roles = roleIds.length ? await db.selectFrom('sys_role').select(['id', 'role_key']).where('id', 'in', roleIds).execute() : [];
      if (roles.length !== roleIds.length) throw new BizError('所选角色不存在，请刷新后重新选择');
      const before = stored ? await db.selectFrom('sys_user_role').select('role_id').where('user_id', '=', stored.id).execute() : [];
      const added = roleIds.filter((r) => !before.some((b) => b.role_id === r));
      assertHolds(req, await permissionsOfRoles(db, added));
      const removed = before.map((b) => b.role_id).filter((r) => !roleIds.includes(r));
      if (stored && removed.length) assertHolds(req, await permissionsOfRoles(db, removed));

      // department and posts: each must exist; the data scope (issue 34 item 2) is checked below
      const deptId = rec.deptId ? Number(rec.deptId) : null;
      if (deptId !== null && !(await app.org.tree()).some((d) => d.id === deptId)) throw new BizError(MSG_DEPT_MISSING);
      const postIds = [...new Set(((rec.postIds ?? []) as Array<string | number>).map(Number))];
      if (postIds.length && (await db.selectFrom('sys_post').select('id').where('id', 'in', postIds).execute()).length !== postIds.length) throw new BizError(MSG_POST_MISSING);
      const mine = await app.org.scopeOf(req.user);
      if (!mine.all) {
        // a department the caller holds (a kept one stays); the account as saved sees nothing the caller does not
        // (no department would take the account out of the caller's scope: only for oneself, which narrows)
        if (deptId === null && stored?.id !== req.user!.id) throw new BizError(MSG_DEPT_REQUIRED);
        if (deptId !== null && deptId !== stored?.dept_id && !mine.deptIds.includes(deptId)) throw new BizError(MSG_OUT_OF_SCOPE, 403);
        const theirs = await app.org.scopeWith(stored?.id ?? 0, roleIds, deptId);
        if (!app.org.covers(mine, theirs)) throw new BizError(stored?.id === req.user!.id ? MSG_SCOPE_WIDEN : MSG_GRANT_WIDER, 403);
      }

      await assertSignInNameFree(db, username, '账号', stored?.id);
      if (phone) await assertSignInNameFree(db, phone, '手机号码', stored?.id);
      if (stored) {
        // able to sign in after the save: enabled, and now within its effective dates
        const t = now();
        const activeAfter = rec.status !== 1 && !(rec.effectiveUntil && rec.effectiveUntil <= t) && !(rec.effectiveFrom && rec.effectiveFrom > t);
        if (stored.id === req.user!.id && !activeAfter) throw new BizError(MSG_NOT_SELF_DISABLE);
        const isAdminAfter = roles.some((r) => r.role_key === ADMIN_ROLE) && activeAfter;
        await keepLastAdmin(db, stored.id, isAdminAfter);
      }

      const time = now();
      const values = {
        nick_name: String(rec.nickName).trim(),
        phone_number: phone,
        email: rec.email || null,
        status: rec.status ?? 0,
        effective_from: rec.effectiveFrom || null,
        effective_until: rec.effectiveUntil || null,
        remark: rec.remark ?? null,
        dept_id: deptId,
        update_time: time,
      };
      let password: string | undefined;
      const userId = await db.transaction().execute(async (trx) => {
        let uid: number;
        if (stored) {
          await trx.updateTable('sys_user').set(values).where('id', '=', stored.id).execute();
          uid = stored.id;
        } else {
          password = generatePassword();
          const r = await trx
            .insertInto('sys_user')
            .values({ ...values, username, avatar: null, password_hash: await hashPassword(password), deleted: 0, failed_logins: 0, locked_until: null, must_change_password: 1, create_time: time })
            .returning('id')
            .executeTakeFirstOrThrow();
          uid = r.id;
        }
        await trx.deleteFrom('sys_user_role').where('user_id', '=', uid).execute();
        if (roleIds.length) await trx.insertInto('sys_user_role').values(roleIds.map((role_id) => ({ user_id: uid, role_id }))).execute();
        await trx.deleteFrom('sys_user_post').where('user_id', '=', uid).execute();
        if (postIds.length) await trx.insertInto('sys_user_post').values(postIds.map((post_id) => ({ user_id: uid, post_id }))).execute();
        return uid;
      });
      // a role taken away, or the account switched off: its sessions end now, on every instance
      if (stored && (removed.length || values.status === 1)) await app.ctx.sessions.revokeUser(stored.id, values.status === 1 ? SIGNED_OUT.disabled : SIGNED_OUT.roles);
      return ok(password ? { id: userId, password } : { id: userId }, '保存成功');
    },
  );

  // the list's status switch sends { id, status }
  const statusBody = { type: 'object', required: ['id', 'status'], properties: { id: idQuery.properties.id, status: { type: 'integer', enum: [0, 1], title: '状态' } } };
  app.post<{ Body: { id: number; status: 0 | 1 } }>('/user/status', { config: { perm: 'system:user:edit' }, schema: { body: statusBody } }, async (req) => {
    const { id, status } = req.body;
    await storedInScope(req, id);
    await assertCanManage(req, db, id);
    if (status === 1) {
      if (id === req.user!.id) throw new BizError(MSG_NOT_SELF_DISABLE);
      await keepLastAdmin(db, id, false);
    }
    await db.updateTable('sys_user').set({ status, update_time: now() }).where('id', '=', id).execute();
    if (status === 1) await app.ctx.sessions.revokeUser(id, SIGNED_OUT.disabled);
    return ok(null, status === 1 ? '已停用' : '已启用');
  });

  app.post<{ Querystring: { id: number } }>('/user/delete', { config: { perm: 'system:user:remove' }, schema: { querystring: idQuery } }, async (req) => {
    const { id } = req.query;
    await storedInScope(req, id);
    if (id === req.user!.id) throw new BizError(MSG_NOT_SELF_DELETE);
    await assertCanManage(req, db, id);
    await keepLastAdmin(db, id, false);
    // soft: the row stays for the audit (the operation log names it); the account can never sign in again
    await db.updateTable('sys_user').set({ deleted: 1, update_time: now() }).where('id', '=', id).execute();
    await app.ctx.sessions.revokeUser(id, SIGNED_OUT.deleted);
    return ok(null, '删除成功');
  });

  // The account's second factor forgotten (a lost phone): it sets one up again at its next sign-in when its role
  // requires one. In the operation log like every write here; the user's sessions stay.
  app.post<{ Querystring: { id: number } }>('/user/resetTotp', { config: { perm: 'system:user:resetTotp' }, schema: { querystring: idQuery } }, async (req) => {
    const { id } = req.query;
    await storedInScope(req, id);
    await assertCanManage(req, db, id);
    const gone = await db.deleteFrom('sys_user_mfa').where('user_id', '=', id).executeTakeFirst();
    if (!Number(gone.numDeletedRows)) throw new BizError('该用户未启用双因素认证');
    return ok(null, '已重置双因素认证');
  });

  // A new password: random (answered once, never stored in clear) or set by the admin (kept to the policy). The
  // user must change it at the next sign-in; their sessions end now.
  app.post<{ Querystring: { id: number }; Body: { mode?: 'random' | 'set'; password?: string } | null }>(
    '/user/resetPwd',
    {
      config: { perm: 'system:user:resetPwd' },
      schema: { querystring: idQuery, body: { type: ['object', 'null'], properties: { mode: { type: ['string', 'null'], enum: ['random', 'set', null], title: '方式' }, password: { type: ['string', 'null'], maxLength: 256, title: '新密码' } } } },
    },
    async (req) => {
      const { id } = req.query;
      const u = await storedInScope(req, id);
      // a reset hands the account to whoever set it: only for accounts whose roles grant nothing the caller lacks
      await assertCanManage(req, db, id);
      // 随机生成 (or no choice): a random one, whatever a hidden password field still held; 由管理员设置: the one given
      const set = req.body?.mode !== 'random' && req.body?.password ? String(req.body.password) : null;
      if (req.body?.mode === 'set' && !set) throw new BizError('请输入新密码');
      if (set) {
        const fault = passwordFault(set, u.username);
        if (fault) throw new BizError(fault);
      }
      const password = set ?? generatePassword();
      await db.updateTable('sys_user').set({ password_hash: await hashPassword(password), must_change_password: 1, update_time: now() }).where('id', '=', id).execute();
      await app.ctx.sessions.revokeUser(id, SIGNED_OUT.password);
      return ok(set ? null : { password }, '密码已重置');
    },
  );
}
