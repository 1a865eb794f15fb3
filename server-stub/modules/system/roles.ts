// 角色管理 (issue 21 item 2): roles with a permission tree of every menu, page and button (M/C/V/F) and every
// permission string the server checks, saved as the role's menus (sys_role_menu: what its holders see) and its
// permission strings (sys_role_permission: what the server lets them do).
//
// The tree's leaves are exactly what can be granted, so a check box means one thing:
//   m:<menu key>  an entry (a page, a hidden view, a button): its menu row, and its permission string if any;
//   p:<string>    a permission no entry carries (e.g. gemini:datasource:test), placed under the page whose
//                 list permission shares its prefix, or under 其他权限.
// An entry with children is a group (g:<key>) whose first leaf is the entry itself (访问本页). Directories (M)
// are groups only: a directory shows to a role when something under it does.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Item as MenuEntry } from '../../../schemas/generated/menu.js';
import { assertPermission } from '../../core/auth.js';
import { checkBody, idQuery, requirePage } from '../../core/declarations.js';
import { BizError, ok } from '../../core/envelope.js';
import { listQuerySchema, matchesAny, pageRows } from '../../core/list.js';
import { ALL_PERMISSIONS } from '../../core/permissions.js';
import { DATA_SCOPE, DATA_SCOPES, MSG_OUT_OF_SCOPE, MSG_SCOPE_WIDEN } from '../../core/org.js';
import { now } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';
import { ADMIN_ROLE, assertHolds, assertSees } from './access.js';
import { freeKey } from '../../core/workspace.js';

export const MSG_ROLE_NOT_FOUND = '角色不存在';

export interface PermNode {
  key: string;
  title: string;
  children?: PermNode[];
}

const ACTION_LABELS: Record<string, string> = {
  list: '查看',
  add: '新增',
  edit: '编辑',
  remove: '删除',
  test: '测试连接',
  execute: '执行',
  submit: '提交',
  upload: '上传',
  export: '导出',
  import: '导入',
  resolve: '审批',
  online: '上线/下线',
  resetPwd: '重置密码',
};
const labelOf = (perm: string) => `${ACTION_LABELS[perm.split(':').pop() ?? ''] ?? perm}（${perm}）`;

interface MenuRow {
  key: string;
  parentKey: string | null;
  entry: MenuEntry;
}

async function menuRows(db: Kysely<Database>): Promise<MenuRow[]> {
  const rows = await db.selectFrom('sys_menu').select(['menu_key', 'parent_key', 'entry']).orderBy('module_type').orderBy('order_num').orderBy('id').execute();
  return rows.map((r) => ({ key: r.menu_key, parentKey: r.parent_key, entry: JSON.parse(r.entry) as MenuEntry }));
}

/** Every permission string the platform knows: what routes check, what entries carry, what roles hold. */
async function permissionCatalogue(app: FastifyInstance, menus: MenuRow[]): Promise<string[]> {
  const held = await app.ctx.db.selectFrom('sys_role_permission').select('permission').distinct().execute();
  const all = new Set<string>([...app.routeTable.map((r) => r.perm).filter((p): p is string => !!p), ...menus.map((m) => m.entry.perms).filter((p): p is string => !!p), ...held.map((h) => h.permission)]);
  all.delete(ALL_PERMISSIONS);
  return [...all].sort();
}

/** The permission tree (see the head of the file) and, per leaf, what checking it grants. */
export async function permissionTree(app: FastifyInstance) {
  const menus = await menuRows(app.ctx.db);
  const catalogue = await permissionCatalogue(app, menus);
  const carried = new Set(menus.map((m) => m.entry.perms).filter(Boolean));
  const childrenOf = new Map<string | null, MenuRow[]>();
  const keys = new Set(menus.map((m) => m.key));
  for (const m of menus) {
    const parent = m.parentKey && keys.has(m.parentKey) ? m.parentKey : null;
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), m]);
  }
  // loose permissions go under the page whose own permission shares their "module:entity:" prefix
  const prefix = (p: string) => p.split(':').slice(0, -1).join(':');
  const pageOfPrefix = new Map<string, string>();
  for (const m of menus) if (m.entry.type === 'C' && m.entry.perms && !pageOfPrefix.has(prefix(m.entry.perms))) pageOfPrefix.set(prefix(m.entry.perms), m.key);
  const loose = new Map<string, string[]>();
  const others: string[] = [];
  for (const p of catalogue) {
    if (carried.has(p)) continue;
    const home = pageOfPrefix.get(prefix(p));
    if (home) loose.set(home, [...(loose.get(home) ?? []), p]);
    else others.push(p);
  }
  const grants = new Map<string, { menu?: string; perm?: string }>();
  const build = (m: MenuRow, depth = 0): PermNode => {
    const kids = depth > 16 ? [] : (childrenOf.get(m.key) ?? []).map((c) => build(c, depth + 1));
    const extra = (loose.get(m.key) ?? []).map((p) => {
      grants.set(`p:${p}`, { perm: p });
      return { key: `p:${p}`, title: labelOf(p) };
    });
    const own = `m:${m.key}`;
    const title = m.entry.type === 'F' || m.entry.type === 'V' ? `${m.entry.name}${m.entry.perms ? `（${m.entry.perms}）` : ''}` : m.entry.name;
    if (m.entry.type !== 'M') grants.set(own, { menu: m.key, perm: m.entry.perms });
    if (!kids.length && !extra.length) return m.entry.type === 'M' ? { key: `g:${m.key}`, title, children: [] } : { key: own, title };
    const self = m.entry.type === 'M' ? [] : [{ key: own, title: `访问本页${m.entry.perms ? `（${m.entry.perms}）` : ''}` }];
    return { key: `g:${m.key}`, title, children: [...self, ...extra, ...kids] };
  };
  const tree = (childrenOf.get(null) ?? []).map((m) => build(m)).filter((n) => !n.key.startsWith('g:') || n.children?.length);
  if (others.length) {
    for (const p of others) grants.set(`p:${p}`, { perm: p });
    tree.push({ key: 'g:__other', title: '其他权限', children: others.map((p) => ({ key: `p:${p}`, title: labelOf(p) })) });
  }
  return { tree, grants, menus };
}

/** The leaves a role holds: an entry when the role sees it and holds its permission; a loose permission when held. */
async function heldKeys(app: FastifyInstance, roleId: number, roleKey: string): Promise<string[]> {
  const { grants } = await permissionTree(app);
  const menus = new Set((await app.ctx.db.selectFrom('sys_role_menu').select('menu_key').where('role_key', '=', roleKey).execute()).map((r) => r.menu_key));
  const perms = new Set((await app.ctx.db.selectFrom('sys_role_permission').select('permission').where('role_id', '=', roleId).execute()).map((r) => r.permission));
  const all = perms.has(ALL_PERMISSIONS);
  const out: string[] = [];
  for (const [key, g] of grants) {
    const seen = g.menu === undefined || all || menus.has(g.menu);
    const allowed = g.perm === undefined || all || perms.has(g.perm);
    if (seen && allowed) out.push(key);
  }
  return out;
}

const roleBody = { type: 'object', properties: { id: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647, title: '编号' }, permKeys: { type: 'array', maxItems: 2000, items: { type: 'string', maxLength: 200 }, title: '权限' }, dataScope: { type: ['string', 'null'], enum: [...DATA_SCOPES, null], title: '数据权限' }, deptIds: { type: ['array', 'null'], maxItems: 2000, items: { type: 'integer', minimum: 1, maximum: 2147483647 }, title: '数据权限部门' } } } as const;

export const MSG_SCOPE_ALL_ONLY = '只有数据权限为全部的用户才能设置全部数据权限';
export const MSG_SCOPE_DEPT_MISSING = '所选部门不存在，请刷新后重新选择';

export function roleRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  const page = requirePage(app.ctx.schemas.pages, 'role');
  const userCount = (roleId: number) => db.selectFrom('sys_user_role').innerJoin('sys_user', 'sys_user.id', 'sys_user_role.user_id').select(sql<number>`count(*)`.as('n')).where('sys_user_role.role_id', '=', roleId).where('sys_user.deleted', '=', 0).executeTakeFirst();
  const answer = async (r: Database['sys_role'] extends infer T ? { [K in keyof T]: any } : never) => ({
    id: r.id,
    roleName: r.role_name,
    roleKey: r.role_key,
    roleType: r.role_type,
    dataScope: r.role_key === ADMIN_ROLE ? DATA_SCOPE.ALL : r.data_scope,
    orderNum: r.order_num,
    remark: r.remark,
    createTime: r.create_time,
    builtIn: r.role_key === ADMIN_ROLE,
    userCount: Number((await userCount(r.id))?.n ?? 0),
  });

  app.post<{ Body: Record<string, any> }>('/role/list', { config: { perm: 'system:role:list' }, schema: { body: listQuerySchema({ roleType: { type: ['array', 'null'], maxItems: 10, items: { type: 'string', maxLength: 32 }, title: '角色类型' } }) } }, async (req) => {
    const q = req.body ?? {};
    let base = db.selectFrom('sys_role');
    const text = typeof q.search === 'string' ? q.search.trim() : '';
    if (text) base = base.where(matchesAny(text, ['role_name', 'role_key']));
    if (Array.isArray(q.roleType) && q.roleType.length) base = base.where('role_type', 'in', q.roleType as string[]);
    const sortable = { roleName: 'role_name', roleKey: 'role_key', orderNum: 'order_num', createTime: 'create_time' };
    const { records, total } = await pageRows(base, q, { sortable, select: (b) => b.selectAll(), then: ['id'], fallback: ['order_num', 'id'] });
    return ok({ records: await Promise.all(records.map(answer)), total });
  });

  app.get<{ Querystring: { id: number } }>('/role/get', { config: { perm: 'system:role:list' }, schema: { querystring: idQuery } }, async (req) => {
    const r = await db.selectFrom('sys_role').selectAll().where('id', '=', req.query.id).executeTakeFirst();
    if (!r) throw new BizError(MSG_ROLE_NOT_FOUND);
    const deptIds = (await db.selectFrom('sys_role_dept').select('dept_id').where('role_id', '=', r.id).orderBy('dept_id').execute()).map((d) => d.dept_id);
    return ok({ ...(await answer(r)), permKeys: await heldKeys(app, r.id, r.role_key), deptIds });
  });

  app.get('/role/permTree', { config: { perm: 'system:role:list' } }, async () => ok((await permissionTree(app)).tree));

  app.post<{ Body: Record<string, any> }>('/role/save', { config: { perm: 'system:role:list' }, schema: { body: roleBody } }, async (req) => {
    const p = await prepareRole(req, req.body);
    const roleId = await db.transaction().execute((trx) => writeRole(trx, p));
    return ok(roleId, p.admin && p.stored ? '保存成功（管理员角色始终拥有全部权限）' : '保存成功');
  });

  /**
   * Checks a role to save as every save is checked (nobody grants what they do not hold, shows what they cannot
   * see, nor sets a scope wider than their own; the administrator role only by administrators); answers what
   * writeRole writes. The route's and a workspace import's one check.
   */
  async function prepareRole(req: FastifyRequest, sent: Record<string, any>) {
    const body = { ...sent };
    const id: number | undefined = body.id ?? undefined;
    assertPermission(req, id ? 'system:role:edit' : 'system:role:add');
    const stored = id ? await db.selectFrom('sys_role').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
    if (id && !stored) throw new BizError(MSG_ROLE_NOT_FOUND);
    if (stored) body.roleKey = stored.role_key; // locked in edit
    const rec = checkBody(page, body, { dicts: await app.dicts.current(), applyDefaults: !stored }) as Record<string, any>;
    const roleKey = String(rec.roleKey).trim();
    const clash = await db.selectFrom('sys_role').select('id').where((eb) => eb.or([eb('role_key', '=', roleKey), eb('role_name', '=', String(rec.roleName).trim())])).$if(!!stored, (q) => q.where('id', '<>', stored!.id)).executeTakeFirst();
    if (clash) throw new BizError(`角色名称或权限字符已存在：${rec.roleName}（${roleKey}）`);

    // what the checked leaves grant; the administrator role always holds everything and is not edited here
    const admin = roleKey === ADMIN_ROLE;
    const { grants, menus } = await permissionTree(app);
    const wanted = ((rec.permKeys ?? []) as string[]).filter((k) => grants.has(k));
    const menuKeys = new Set<string>();
    const perms = new Set<string>();
    const parentOf = new Map(menus.map((m) => [m.key, m.parentKey]));
    for (const k of wanted) {
      const g = grants.get(k)!;
      if (g.perm) perms.add(g.perm);
      // an entry, and every directory and page above it, so that it shows in the menu
      for (let m = g.menu ?? null, depth = 0; m && depth < 32; m = parentOf.get(m) ?? null, depth++) menuKeys.add(m);
    }
    // the administrator role is only for administrators to touch (its name, type, order, remark)
    if (admin) assertHolds(req, [ALL_PERMISSIONS]);
    else {
      // nobody grants what they do not hold (only what this save adds is asked about)
      const before = stored ? new Set((await db.selectFrom('sys_role_permission').select('permission').where('role_id', '=', stored.id).execute()).map((r) => r.permission)) : new Set<string>();
      assertHolds(req, [...perms].filter((p) => !before.has(p)));
      // nor shows entries they cannot see themselves (issue 40): an entry without a permission string is
      // granted only by those whose own roles show it (a menu emptied of its permission is no grant for anyone)
      const shown = stored ? new Set((await db.selectFrom('sys_role_menu').select('menu_key').where('role_key', '=', stored.role_key).execute()).map((r) => r.menu_key)) : new Set<string>();
      const bare = menus.filter((m) => menuKeys.has(m.key) && !shown.has(m.key) && m.entry.type !== 'M' && !m.entry.perms);
      await assertSees(req, bare);
    }
    // data scope (issue 34 item 2): 自定义 keeps the ticked departments; nobody sets a scope wider than their own,
    // nor widens their own through a role they hold
    const dataScope: string = admin ? DATA_SCOPE.ALL : (rec.dataScope ?? stored?.data_scope ?? DATA_SCOPE.ALL);
    const deptIds = dataScope === DATA_SCOPE.CUSTOM ? [...new Set(((rec.deptIds ?? []) as number[]).map(Number))] : [];
    if (deptIds.length) {
      const known = new Set((await app.org.tree()).map((d) => d.id));
      if (deptIds.some((d) => !known.has(d))) throw new BizError(MSG_SCOPE_DEPT_MISSING);
    }
    if (!admin) {
      const mine = await app.org.scopeOf(req.user);
      if (!mine.all) {
        if (dataScope === DATA_SCOPE.ALL) throw new BizError(MSG_SCOPE_ALL_ONLY, 403);
        if (deptIds.some((d) => !mine.deptIds.includes(d))) throw new BizError(MSG_OUT_OF_SCOPE, 403);
        if (stored) {
          const me = req.user!;
          const myRoles = (await db.selectFrom('sys_user_role').select('role_id').where('user_id', '=', me.id).execute()).map((x) => x.role_id);
          if (myRoles.includes(stored.id)) {
            const after = await app.org.scopeWith(me.id, myRoles, mine.deptId ?? (await app.org.deptOf(me.id)).deptId, { id: stored.id, dataScope, deptIds });
            if (!app.org.covers(mine, after)) throw new BizError(MSG_SCOPE_WIDEN, 403);
          }
        }
      }
    }
    const values = { role_name: String(rec.roleName).trim(), role_type: rec.roleType ?? null, order_num: rec.orderNum ?? 0, remark: rec.remark ?? null, data_scope: dataScope };
    return { stored, roleKey, admin, values, perms, menuKeys, deptIds };
  }

  /** Writes a checked role with its grants and departments in `trx`; answers its id. */
  async function writeRole(trx: Kysely<Database>, p: Awaited<ReturnType<typeof prepareRole>>): Promise<number> {
    const { stored, roleKey, admin, values, perms, menuKeys, deptIds } = p;
    const time = now();
    {
      let rid: number;
      if (stored) {
        await trx.updateTable('sys_role').set(values).where('id', '=', stored.id).execute();
        rid = stored.id;
      } else {
        rid = (await trx.insertInto('sys_role').values({ ...values, role_key: roleKey, create_time: time }).returning('id').executeTakeFirstOrThrow()).id;
      }
      if (!admin) {
        await trx.deleteFrom('sys_role_permission').where('role_id', '=', rid).execute();
        if (perms.size) await trx.insertInto('sys_role_permission').values([...perms].map((permission) => ({ role_id: rid, permission }))).execute();
        await trx.deleteFrom('sys_role_menu').where('role_key', '=', roleKey).execute();
        if (menuKeys.size) await trx.insertInto('sys_role_menu').values([...menuKeys].map((menu_key) => ({ role_key: roleKey, menu_key }))).execute();
      }
      await trx.deleteFrom('sys_role_dept').where('role_id', '=', rid).execute();
      if (deptIds.length) await trx.insertInto('sys_role_dept').values(deptIds.map((dept_id) => ({ role_id: rid, dept_id }))).execute();
      return rid;
    }
  }
  registerRoleWorkspace(app, { prepare: prepareRole, write: writeRole, heldKeys: (id, key) => heldKeys(app, id, key), grantKeys: async () => new Set((await permissionTree(app)).grants.keys()) });

  app.post<{ Querystring: { id: number } }>('/role/delete', { config: { perm: 'system:role:remove' }, schema: { querystring: idQuery } }, async (req) => {
    const r = await db.selectFrom('sys_role').selectAll().where('id', '=', req.query.id).executeTakeFirst();
    if (!r) throw new BizError(MSG_ROLE_NOT_FOUND);
    if (r.role_key === ADMIN_ROLE) throw new BizError('管理员角色不能删除');
    const n = Number((await userCount(r.id))?.n ?? 0);
    if (n > 0) throw new BizError(`角色【${r.role_name}】已分配给 ${n} 个用户，请先取消分配再删除`);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_role_permission').where('role_id', '=', r.id).execute();
      await trx.deleteFrom('sys_role_menu').where('role_key', '=', r.role_key).execute();
      await trx.deleteFrom('sys_role_dept').where('role_id', '=', r.id).execute();
      // users deleted earlier keep no link to a role that no longer exists
      await trx.deleteFrom('sys_user_role').where('role_id', '=', r.id).execute();
      await trx.deleteFrom('sys_role').where('id', '=', r.id).execute();
    });
    return ok(null, '删除成功');
  });
}

interface RoleContent {
  roleName: string;
  roleType: string | null;
  orderNum: number;
  remark: string | null;
  dataScope: string;
  permKeys: string[];
}
type RoleSaves<P> = {
  prepare(req: FastifyRequest, body: Record<string, unknown>): Promise<P>;
  write(on: Kysely<Database>, p: P): Promise<number>;
  heldKeys(roleId: number, roleKey: string): Promise<string[]>;
  /** the leaves of this deployment's permission tree */
  grantKeys(): Promise<Set<string>>;
};

/**
 * Roles in a workspace export and import (issue 37 item 3): a role by its key, its name, type, data scope and the
 * leaves of the permission tree it holds (a custom scope's departments do not travel: they are this deployment's).
 * An import checks it as a role save does — nobody grants what they do not hold — and never touches the
 * administrator role.
 */
function registerRoleWorkspace<P>(app: FastifyInstance, saves: RoleSaves<P>) {
  const { db } = app.ctx;
  const asItem = async (key: string) => {
    const r = await db.selectFrom('sys_role').selectAll().where('role_key', '=', key).executeTakeFirst();
    if (!r || r.role_key === ADMIN_ROLE) return null;
    const content: RoleContent = { roleName: r.role_name, roleType: r.role_type, orderNum: Number(r.order_num), remark: r.remark, dataScope: r.data_scope ?? DATA_SCOPE.ALL, permKeys: (await saves.heldKeys(Number(r.id), r.role_key)).sort() };
    return { kind: 'role' as const, key: r.role_key, title: r.role_name, content: content as unknown as Record<string, unknown> };
  };
  app.workspace.register<P>({
    kind: 'role',
    readPerm: 'system:role:list',
    writePerm: 'system:role:add',
    list: async () => (await db.selectFrom('sys_role').select(['role_key', 'role_name']).where('role_key', '<>', ADMIN_ROLE).orderBy('order_num').execute()).map((r) => ({ key: r.role_key, title: `${r.role_name}（${r.role_key}）` })),
    read: asItem,
    existing: asItem,
    prepare: async (item, ctx, mode, key) => {
      if (key === ADMIN_ROLE) throw new BizError('管理员角色不能导入', 403);
      const c = item.content as Partial<RoleContent>;
      const stored = mode === 'replace' ? await db.selectFrom('sys_role').select(['id', 'data_scope']).where('role_key', '=', key).executeTakeFirst() : undefined;
      const name = mode === 'copy' ? `${String(c.roleName ?? key).slice(0, 24)}（${key}）` : c.roleName;
      // a custom scope's departments are this deployment's: a replaced role keeps its own, a new one sees its own rows
      const keepScope = stored && (c.dataScope === DATA_SCOPE.CUSTOM || stored.data_scope === DATA_SCOPE.CUSTOM);
      const scope = keepScope ? stored.data_scope : c.dataScope === DATA_SCOPE.CUSTOM ? DATA_SCOPE.SELF : c.dataScope;
      const deptIds = keepScope && stored.data_scope === DATA_SCOPE.CUSTOM ? (await db.selectFrom('sys_role_dept').select('dept_id').where('role_id', '=', stored.id).execute()).map((r) => Number(r.dept_id)) : [];
      // a grant this deployment does not know is refused, not dropped (a crafted file is told, not half applied);
      // a page's entry the file brings along is granted by the page itself (its roles)
      const known = await saves.grantKeys();
      const keys = Array.isArray(c.permKeys) ? c.permKeys.map(String).slice(0, 2000) : [];
      const carried = (k: string) => k.startsWith('m:lowcode-') && ctx.inFile('page', k.slice('m:lowcode-'.length));
      const unknown = keys.filter((k) => !known.has(k) && !carried(k));
      if (unknown.length) throw new BizError(`权限在本环境不存在：${unknown.slice(0, 5).join('、')}`, 403);
      return saves.prepare(ctx.req, { id: stored ? Number(stored.id) : undefined, roleKey: key, roleName: name, roleType: c.roleType, orderNum: c.orderNum, remark: c.remark, dataScope: scope, deptIds, permKeys: keys.filter((k) => known.has(k)) });
    },
    write: async (p, on) => {
      await saves.write(on, p);
      return (p as { roleKey: string }).roleKey;
    },
    copyKey: (key) => freeKey(key, 30, async (k) => !!(await db.selectFrom('sys_role').select('id').where('role_key', '=', k).executeTakeFirst())),
  });
}
