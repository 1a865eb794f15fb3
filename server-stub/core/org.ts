// The organisation (issue 34): departments (a tree), posts, a user's department and posts, and each role's data
// scope (数据权限). The tables are declared here, beside the `org` platform service that every module reads them
// through (a module never imports another; DESIGN §8 "Structure"): system management edits them, the user list,
// the pages on tables and the datasets ask `app.org` which rows a caller may see.
//
// A role's data scope (dictionary DATA_SCOPE): 1 全部, 2 自定义 (the departments ticked for the role, sys_role_dept),
// 3 本部门, 4 本部门及以下, 5 仅本人. A user with several roles gets the union. The administrator role, and every
// caller while the permission switch is off, see everything.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { ALL_PERMISSIONS, hasPermission } from './permissions.js';
import type { RequestUser } from './context.js';
import { tableTopic, type Invalidation, type Memo } from './invalidation.js';
import { declareTable, migration, timestamps, type TableRow } from './tables.js';
import type { Database } from '../store/schema.js';

export const depts = declareTable({
  name: 'sys_dept',
  migration: '20261205_01_sys_dept',
  columns: {
    id: { type: 'id' },
    parentId: { type: 'integer', notNull: true, default: 0 },
    deptName: { type: 'varchar(50)', notNull: true },
    orderNum: { type: 'integer', notNull: true, default: 0 },
    leader: { type: 'varchar(30)' },
    phone: { type: 'varchar(20)' },
    email: { type: 'varchar(100)' },
    status: { type: 'integer', notNull: true, default: 0 },
    ...timestamps,
  },
  indexes: [{ name: 'ux_sys_dept_parent_name', columns: ['parentId', 'deptName'], unique: true }],
  duplicate: (rec) => `同一上级部门下已有部门【${rec.deptName}】`,
});

export const posts = declareTable({
  name: 'sys_post',
  migration: '20261205_02_sys_post',
  columns: {
    id: { type: 'id' },
    postCode: { type: 'varchar(64)', notNull: true },
    postName: { type: 'varchar(50)', notNull: true },
    orderNum: { type: 'integer', notNull: true, default: 0 },
    status: { type: 'integer', notNull: true, default: 0 },
    remark: { type: 'varchar(500)' },
    ...timestamps,
  },
  indexes: [
    { name: 'ux_sys_post_code', columns: ['postCode'], unique: true },
    { name: 'ux_sys_post_name', columns: ['postName'], unique: true },
  ],
  duplicate: (rec) => `岗位编码【${rec.postCode}】或岗位名称【${rec.postName}】已存在`,
});

export interface UserPostTable {
  user_id: number;
  post_id: number;
}
export interface RoleDeptTable {
  role_id: number;
  dept_id: number;
}

declare module '../store/schema.js' {
  interface Database {
    sys_dept: TableRow<typeof depts>;
    sys_post: TableRow<typeof posts>;
    sys_user_post: UserPostTable;
    sys_role_dept: RoleDeptTable;
  }
}

/** The store's migrations of the organisation's tables (with the platform services', app.ts). */
export const orgMigrations = {
  ...depts.migrations,
  ...posts.migrations,
  '20261205_03_org_links': migration(async (db) => {
    await db.schema.createTable('sys_user_post').ifNotExists().addColumn('user_id', 'integer', (c) => c.notNull()).addColumn('post_id', 'integer', (c) => c.notNull()).addPrimaryKeyConstraint('pk_sys_user_post', ['user_id', 'post_id']).execute();
    await db.schema.createTable('sys_role_dept').ifNotExists().addColumn('role_id', 'integer', (c) => c.notNull()).addColumn('dept_id', 'integer', (c) => c.notNull()).addPrimaryKeyConstraint('pk_sys_role_dept', ['role_id', 'dept_id']).execute();
    await db.schema.alterTable('sys_user').addColumn('dept_id', 'integer').execute();
    await db.schema.createIndex('ix_sys_user_dept').ifNotExists().on('sys_user').column('dept_id').execute();
    // every role as it was sees every row (全部) until an admin narrows it
    await db.schema.alterTable('sys_role').addColumn('data_scope', 'varchar(1)', (c) => c.notNull().defaultTo('1')).execute();
  }),
};

/* ------------------------------------------------------------------ data scope */

export const DATA_SCOPE = { ALL: '1', CUSTOM: '2', DEPT: '3', DEPT_AND_BELOW: '4', SELF: '5' } as const;
export type DataScopeKind = (typeof DATA_SCOPE)[keyof typeof DATA_SCOPE];
export const DATA_SCOPES: readonly string[] = Object.values(DATA_SCOPE);
const ADMIN_ROLE = 'sys_admin';

/** What one user may see: every row, or rows of these departments, and (self) the rows they own. */
export interface DataScope {
  all: boolean;
  userId: number;
  /** the user's own department (null: none) */
  deptId: number | null;
  /** departments whose rows the user sees, sorted */
  deptIds: number[];
  /** rows owned by the user (仅本人) */
  self: boolean;
}

export interface DeptNode {
  id: number;
  parentId: number;
  deptName: string;
  orderNum: number;
  status: number;
}

export const MSG_SCOPE_WIDEN = '不能扩大自己的数据权限：修改后的部门或角色超出了当前的数据权限范围';
export const MSG_OUT_OF_SCOPE = '没有权限操作该数据：不在您的数据权限范围内';

export interface OrgService {
  /** every department (id, parent, name, order, status), held in memory until one changes */
  tree(): Promise<DeptNode[]>;
  /** the department and every one below it (itself first); [] when it does not exist */
  subtree(deptId: number): Promise<number[]>;
  /** the user's department and the ids of it and every department below it (for the datasets' row rules) */
  deptOf(userId: number): Promise<{ deptId: number | null; deptIds: number[] }>;
  /** the caller's data scope: the union of their roles' scopes */
  scopeOf(user: RequestUser | undefined): Promise<DataScope>;
  /**
   * The scope a user would have with these roles and this department (a save checks it before writing);
   * `role` stands for one role as a role save would leave it.
   */
  scopeWith(userId: number, roleIds: number[], deptId: number | null, role?: { id: number; dataScope: string; deptIds: number[] }): Promise<DataScope>;
  /** whether every row `inner` sees is one `outer` sees */
  covers(outer: DataScope, inner: DataScope): boolean;
  /** whether a row with this owner and department lies in the scope (a missing column is undefined) */
  holds(scope: DataScope, row: { ownerId?: unknown; deptId?: unknown }): boolean;
}

const sameIds = (a: unknown, b: unknown) => a !== null && a !== undefined && b !== null && b !== undefined && String(a) === String(b);

/** The service over the app's store and invalidation channel (read at first use: a bare test app has neither). */
export function orgService(ctx: () => { db: Kysely<Database>; invalidation: Invalidation; config: { permissionSwitch: boolean } }): OrgService {
  let memos: { tree: Memo<'tree', DeptNode[]>; scopes: Memo<number, DataScope> } | undefined;
  const held = () =>
    (memos ??= {
      tree: ctx().invalidation.memo<'tree', DeptNode[]>([tableTopic('sys_dept')], { max: 1 }),
      scopes: ctx().invalidation.memo<number, DataScope>(['sys_dept', 'sys_user', 'sys_user_role', 'sys_role', 'sys_role_dept'].map(tableTopic), { max: 10_000 }),
    });
  const db = () => ctx().db;
  const permissionSwitch = () => ctx().config.permissionSwitch;
  const tree = () =>
    held().tree.get('tree', async () =>
      (await db().selectFrom('sys_dept').select(['id', 'parent_id', 'dept_name', 'order_num', 'status']).orderBy('parent_id').orderBy('order_num').orderBy('id').execute()).map((r) => ({ id: r.id, parentId: r.parent_id, deptName: r.dept_name, orderNum: r.order_num, status: r.status })),
    );
  const subtree = async (deptId: number): Promise<number[]> => {
    const nodes = await tree();
    if (!nodes.some((n) => n.id === deptId)) return [];
    const kids = new Map<number, number[]>();
    for (const n of nodes) kids.set(n.parentId, [...(kids.get(n.parentId) ?? []), n.id]);
    const out: number[] = [];
    const seen = new Set<number>();
    for (const stack = [deptId]; stack.length; ) {
      const id = stack.pop()!;
      if (seen.has(id)) continue; // a cycle written straight into the store never loops
      seen.add(id);
      out.push(id);
      stack.push(...(kids.get(id) ?? []).reverse());
    }
    return out;
  };
  const deptOfRow = async (userId: number) => (await db().selectFrom('sys_user').select('dept_id').where('id', '=', userId).executeTakeFirst())?.dept_id ?? null;

  const compute = async (userId: number, roles: Array<{ id: number; role_key: string; data_scope: string }>, deptId: number | null, role?: { id: number; dataScope: string; deptIds: number[] }): Promise<DataScope> => {
    const scope: DataScope = { all: false, userId, deptId, deptIds: [], self: false };
    const ids = new Set<number>();
    const custom: number[] = [];
    for (const r of roles) {
      const kind = r.role_key === ADMIN_ROLE ? DATA_SCOPE.ALL : role?.id === r.id ? role.dataScope : r.data_scope;
      if (kind === DATA_SCOPE.ALL) return { ...scope, all: true };
      if (kind === DATA_SCOPE.CUSTOM && role?.id === r.id) for (const d of role.deptIds) ids.add(d);
      else if (kind === DATA_SCOPE.CUSTOM) custom.push(r.id);
      else if (kind === DATA_SCOPE.DEPT && deptId !== null) ids.add(deptId);
      else if (kind === DATA_SCOPE.DEPT_AND_BELOW && deptId !== null) for (const d of await subtree(deptId)) ids.add(d);
      else if (kind === DATA_SCOPE.SELF) scope.self = true;
    }
    if (custom.length) for (const r of await db().selectFrom('sys_role_dept').select('dept_id').where('role_id', 'in', custom).execute()) ids.add(r.dept_id);
    scope.deptIds = [...ids].sort((a, b) => a - b);
    return scope;
  };
  const rolesById = (roleIds: number[]) => (roleIds.length ? db().selectFrom('sys_role').select(['id', 'role_key', 'data_scope']).where('id', 'in', roleIds).execute() : Promise.resolve([]));

  return {
    tree,
    subtree,
    async deptOf(userId) {
      const deptId = await deptOfRow(userId);
      return { deptId, deptIds: deptId === null ? [] : await subtree(deptId) };
    },
    async scopeOf(user) {
      if (!user) return { all: false, userId: 0, deptId: null, deptIds: [], self: false };
      if (!permissionSwitch() || hasPermission(user.permissions, ALL_PERMISSIONS) || user.roles.includes(ADMIN_ROLE)) return { all: true, userId: user.id, deptId: null, deptIds: [], self: false };
      return held().scopes.get(user.id, async () => {
        const roles = await db().selectFrom('sys_user_role').innerJoin('sys_role', 'sys_role.id', 'sys_user_role.role_id').select(['sys_role.id', 'sys_role.role_key', 'sys_role.data_scope']).where('sys_user_role.user_id', '=', user.id).execute();
        return compute(user.id, roles, await deptOfRow(user.id));
      });
    },
    async scopeWith(userId, roleIds, deptId, role) {
      return compute(userId, await rolesById(roleIds), deptId, role);
    },
    covers(outer, inner) {
      if (outer.all) return true;
      if (inner.all) return false;
      // one's own rows: covered by 仅本人 of the same user, or by the department they are stamped with (the owner's)
      if (inner.self && !(outer.self && outer.userId === inner.userId) && !(inner.deptId !== null && outer.deptIds.includes(inner.deptId))) return false;
      const have = new Set(outer.deptIds);
      return inner.deptIds.every((d) => have.has(d));
    },
    holds(scope, row) {
      if (scope.all) return true;
      if (scope.self && sameIds(row.ownerId, scope.userId)) return true;
      return row.deptId !== null && row.deptId !== undefined && scope.deptIds.some((d) => sameIds(d, row.deptId));
    },
  };
}

/**
 * The users a data scope sees (issue 34 item 2): those of its departments, and the caller (仅本人): a user's
 * department column is the row's department, the user the row's owner. Every route that lists users uses it.
 */
export function usersInScope<Q extends { where: (...a: any[]) => Q }>(q: Q, scope: DataScope, table = 'sys_user'): Q {
  if (scope.all) return q;
  return q.where((eb: any) => {
    const ors = [];
    if (scope.deptIds.length) ors.push(eb(`${table}.dept_id`, 'in', scope.deptIds));
    if (scope.self) ors.push(eb(`${table}.id`, '=', scope.userId));
    return ors.length ? eb.or(ors) : sql<boolean>`1 = 0`;
  });
}

/** A department's users, counted (the delete check and the tree's counts). */
export async function usersPerDept(db: Kysely<Database>): Promise<Map<number, number>> {
  const rows = await db.selectFrom('sys_user').select(['dept_id', sql<number>`count(*)`.as('n')]).where('deleted', '=', 0).where('dept_id', 'is not', null).groupBy('dept_id').execute();
  return new Map(rows.map((r) => [Number(r.dept_id), Number(r.n)]));
}
