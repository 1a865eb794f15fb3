// 部门管理 and 岗位管理 (issue 34 item 1): the tables are the `org` service's (core/org.ts); the pages are
// declared (schemas/pages/dept.page.json, a tree table; post.page.json) and served by the generic list-page
// routes, with what a declaration cannot say: a department's parent is an existing department and never the
// department itself or one below it; a department with departments or users under it, or a post held by users,
// is not deleted and says why; a caller whose data scope is not 全部 only makes and changes departments inside it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BizError, ok } from '../../core/envelope.js';
import { depts, MSG_OUT_OF_SCOPE, posts, usersPerDept } from '../../core/org.js';
import { listPageRoutes } from '../../core/tables.js';

export const MSG_DEPT_NOT_FOUND = '部门不存在';
export const MSG_DEPT_HAS_CHILDREN = '部门存在下级部门，不能删除';
export const MSG_DEPT_HAS_USERS = '部门下存在用户，不能删除';
export const MSG_DEPT_PARENT_SELF = '上级部门不能是本部门或其下级部门';
export const MSG_DEPT_PARENT_MISSING = '上级部门不存在，请刷新后重新选择';
export const MSG_DEPT_ENABLED_BELOW = '该部门包含未停用的下级部门，不能停用';
export const MSG_POST_NOT_FOUND = '岗位不存在';
export const MSG_POST_HELD = (name: string, n: number) => `岗位【${name}】已分配给 ${n} 个用户，不能删除`;

const statusFilter = { type: ['array', 'integer', 'null'], maxItems: 2, items: { type: 'integer', enum: [0, 1] }, title: '状态' };

export function orgRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  /** Refuses a department outside the caller's data scope (全部 may touch any). */
  const assertDeptInScope = async (req: FastifyRequest, deptId: number) => {
    const scope = await app.org.scopeOf(req.user);
    if (!scope.all && !scope.deptIds.includes(deptId)) throw new BizError(MSG_OUT_OF_SCOPE, 403);
  };

  listPageRoutes(app, depts, {
    page: 'dept',
    notFound: MSG_DEPT_NOT_FOUND,
    filters: { status: statusFilter },
    // a caller whose scope is not 全部 sees, edits and deletes only the departments of their scope
    async visible(req) {
      const scope = await app.org.scopeOf(req.user);
      return scope.all ? null : (q) => q.where('id', 'in', scope.deptIds.length ? scope.deptIds : [-1]);
    },
    async beforeSave(rec, stored, req) {
      const parentId = Number(rec.parentId ?? 0);
      rec.parentId = parentId;
      if (parentId !== 0) {
        const parent = (await app.org.tree()).find((d) => d.id === parentId);
        if (!parent) throw new BizError(MSG_DEPT_PARENT_MISSING);
        if (stored && (await app.org.subtree(stored.id)).includes(parentId)) throw new BizError(MSG_DEPT_PARENT_SELF);
      }
      if (stored) await assertDeptInScope(req, stored.id);
      // a new department, or one moved, lands under a parent the caller holds (a top-level one: 全部 only)
      if (!stored || stored.parent_id !== parentId) {
        const scope = await app.org.scopeOf(req.user);
        if (!scope.all && (parentId === 0 || !scope.deptIds.includes(parentId))) throw new BizError(MSG_OUT_OF_SCOPE, 403);
      }
      if (stored && rec.status === 1 && stored.status !== 1) {
        const below = (await app.org.subtree(stored.id)).slice(1);
        if ((await app.org.tree()).some((d) => below.includes(d.id) && d.status !== 1)) throw new BizError(MSG_DEPT_ENABLED_BELOW);
      }
    },
    async beforeDelete(row, req) {
      await assertDeptInScope(req, row.id);
      if (await db.selectFrom('sys_dept').select('id').where('parent_id', '=', row.id).executeTakeFirst()) throw new BizError(MSG_DEPT_HAS_CHILDREN);
      if (await db.selectFrom('sys_user').select('id').where('dept_id', '=', row.id).where('deleted', '=', 0).executeTakeFirst()) throw new BizError(MSG_DEPT_HAS_USERS);
    },
    // roles whose 自定义 scope ticked it no longer name it
    onDelete: async (row) => {
      await db.deleteFrom('sys_role_dept').where('dept_id', '=', row.id).execute();
    },
  });

  // the tree a department's 上级部门 picks from (flat rows, nested by parentId)
  // (a caller whose scope is not 全部: only the departments of their scope, and no top level)
  const treeOf = async (req: FastifyRequest) => {
    const scope = await app.org.scopeOf(req.user);
    return (await app.org.tree()).filter((d) => scope.all || scope.deptIds.includes(d.id)).map((d) => ({ id: d.id, parentId: d.parentId, deptName: d.deptName }));
  };
  app.get('/dept/options', { config: { perm: 'system:dept:list' } }, async (req) => {
    const all = (await app.org.scopeOf(req.user)).all;
    return ok([...(all ? [{ id: 0, parentId: null, deptName: '顶级部门' }] : []), ...(await treeOf(req))]);
  });

  /**
   * The department tree of the users page (its side tree, the user dialog's 部门): the caller's departments and
   * those above them (to place them), each with its users counted among those the caller sees.
   */
  app.post('/dept/tree', { config: { perm: 'system:user:list' } }, async (req) => {
    const scope = await app.org.scopeOf(req.user);
    const all = await app.org.tree();
    const counts = await usersPerDept(db);
    const mine = new Set(scope.all ? all.map((d) => d.id) : scope.deptIds);
    const byId = new Map(all.map((d) => [d.id, d]));
    const shown = new Set<number>();
    for (const id of mine) for (let d = byId.get(id), n = 0; d && !shown.has(d.id) && n < 64; d = byId.get(d.parentId), n++) shown.add(d.id);
    // a node's count covers its whole subtree (as the side tree shows it), each user once
    const below = new Map<number, number>();
    for (const d of all) if (mine.has(d.id)) for (let p = byId.get(d.id), n = 0; p && n < 64; p = byId.get(p.parentId), n++) below.set(p.id, (below.get(p.id) ?? 0) + (counts.get(d.id) ?? 0));
    // a department shown only to place the caller's is `outside`: the user dialog offers it greyed
    return ok(all.filter((d) => shown.has(d.id)).map((d) => ({ id: d.id, parentId: d.parentId, deptName: d.deptName, status: d.status, userCount: below.get(d.id) ?? 0, ...(mine.has(d.id) ? {} : { outside: true }) })));
  });

  // the tree 自定义 data scope ticks in the role dialog (within the caller's scope, as a role save checks)
  app.get('/role/deptTree', { config: { perm: 'system:role:list' } }, async (req) => ok(await treeOf(req)));

  listPageRoutes(app, posts, {
    page: 'post',
    notFound: MSG_POST_NOT_FOUND,
    filters: { status: statusFilter },
    async beforeDelete(row) {
      const held = await db.selectFrom('sys_user_post').innerJoin('sys_user', 'sys_user.id', 'sys_user_post.user_id').select((eb) => eb.fn.countAll<number>().as('n')).where('sys_user_post.post_id', '=', row.id).where('sys_user.deleted', '=', 0).executeTakeFirst();
      const n = Number(held?.n ?? 0);
      if (n > 0) throw new BizError(MSG_POST_HELD(row.post_name, n));
    },
  });

  // the posts a user dialog offers
  app.get('/post/options', { config: { perm: 'system:user:list' } }, async () => {
    const rows = await db.selectFrom('sys_post').select(['id', 'post_name', 'status']).orderBy('order_num').orderBy('id').execute();
    return ok(rows.map((r) => ({ postId: r.id, postName: r.status === 1 ? `${r.post_name}（停用）` : r.post_name })));
  });
}
