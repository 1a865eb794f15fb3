// The API group tree (spec part 2 "API group tree side panel", §3 "API group", §5, §7 group calls).
// The root 全部分组 (id 0) is virtual. Siblings are ordered by sort_no; up / down swap neighbours.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { BizError, ok } from '../../core/envelope.js';
import { idQuery, optionalId } from '../../core/declarations.js';
import { now } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';
import { PERM } from './perms.js';
import { API_STATUS } from './design.js';

export const GROUP_MSG = {
  nameRequired: '请输入组名称',
  nameTooLong: '组名称不能超过50个字符',
  selfMove: (name: string) => `节点【${name}】不能移到自己节点下`,
  notFound: '分组不存在',
  parentNotFound: '上级分组不存在',
  duplicate: (name: string) => `同级下已有分组【${name}】`,
  hasChildren: (name: string) => `分组【${name}】下还有子分组，不能删除`,
  hasApis: (name: string, n: number) => `分组【${name}】下还有 ${n} 个接口，不能删除`,
} as const;

interface GroupRow {
  id: number;
  parent_id: number;
  name: string;
  sort_no: number;
}

async function allGroups(db: Kysely<Database>): Promise<GroupRow[]> {
  return db.selectFrom('gemini_api_group').select(['id', 'parent_id', 'name', 'sort_no']).orderBy('parent_id').orderBy('sort_no').orderBy('id').execute();
}

/** The ids of a group and all its descendants. */
export function subtreeIds(groups: Array<{ id: number; parent_id: number }>, rootId: number): number[] {
  const children = new Map<number, number[]>();
  for (const g of groups) children.set(g.parent_id, [...(children.get(g.parent_id) ?? []), g.id]);
  const out: number[] = [];
  const stack = [rootId];
  while (stack.length) {
    const id = stack.pop()!;
    if (out.includes(id)) continue; // a cycle in hand-edited data must not loop forever
    out.push(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}

async function siblingsOf(db: Kysely<Database>, parentId: number): Promise<GroupRow[]> {
  return db.selectFrom('gemini_api_group').select(['id', 'parent_id', 'name', 'sort_no']).where('parent_id', '=', parentId).orderBy('sort_no').orderBy('id').execute();
}

export function groupRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  /**
   * The tree with counts: a group counts the APIs of its whole subtree (each API once, at its own group and
   * at each ancestor), as the list it filters shows them; `ownCount` is the APIs directly in it. Without
   * `drafts` the counts leave drafts out, as the approval list does.
   */
  const tree = async (drafts: boolean) => {
    const groups = await allGroups(db);
    let q = db.selectFrom('gemini_api').select(['group_id']).select((eb) => eb.fn.countAll<number>().as('n')).groupBy('group_id');
    if (!drafts) q = q.where('api_status', '<>', API_STATUS.draft);
    const direct = new Map((await q.execute()).map((c) => [Number(c.group_id), Number(c.n)]));
    return ok(
      groups.map((g) => ({
        id: g.id,
        parentId: g.parent_id,
        name: g.name,
        sortNo: g.sort_no,
        apiCount: subtreeIds(groups, g.id).reduce((n, id) => n + (direct.get(id) ?? 0), 0),
        ownCount: direct.get(g.id) ?? 0,
      })),
    );
  };
  app.post('/group/select', { config: { perm: PERM.designList } }, async () => tree(true));
  // the approval list shows no drafts: its tree counts what it lists
  app.post('/approve/group/select', { config: { perm: PERM.approveList } }, async () => tree(false));

  const groupBody = {
    type: 'object',
    properties: {
      id: optionalId('编号'),
      parentId: optionalId('上级分组', 0),
      name: { type: ['string', 'null'], maxLength: 200, title: '组名称' },
    },
  } as const;

  app.post<{ Body: { id?: number | null; parentId?: number | null; name?: string | null } }>('/group/save', { config: { perm: PERM.group }, schema: { body: groupBody } }, async (req) => {
    const name = (req.body.name ?? '').trim();
    if (!name) throw new BizError(GROUP_MSG.nameRequired);
    if ([...name].length > 50) throw new BizError(GROUP_MSG.nameTooLong);
    const parentId = req.body.parentId ?? 0;
    const groups = await allGroups(db);
    if (parentId !== 0 && !groups.some((g) => g.id === parentId)) throw new BizError(GROUP_MSG.parentNotFound);
    const id = req.body.id ?? undefined;
    const stored = id ? groups.find((g) => g.id === id) : undefined;
    if (id && !stored) throw new BizError(GROUP_MSG.notFound);
    // under itself or under one of its own descendants: the tree would lose the subtree
    if (stored && subtreeIds(groups, stored.id).includes(parentId)) throw new BizError(GROUP_MSG.selfMove(stored.name));
    if (groups.some((g) => g.parent_id === parentId && g.name === name && g.id !== id)) throw new BizError(GROUP_MSG.duplicate(name));
    const time = now();
    if (stored) {
      const moved = stored.parent_id !== parentId;
      const sortNo = moved ? (await siblingsOf(db, parentId)).length : stored.sort_no;
      await db.updateTable('gemini_api_group').set({ name, parent_id: parentId, sort_no: sortNo, update_time: time }).where('id', '=', stored.id).execute();
      return ok(stored.id, '保存成功');
    }
    const sortNo = (await siblingsOf(db, parentId)).length;
    const row = await db.insertInto('gemini_api_group').values({ name, parent_id: parentId, sort_no: sortNo, create_time: time, update_time: time }).returning('id').executeTakeFirstOrThrow();
    return ok(Number(row.id), '添加成功');
  });

  const move = (step: -1 | 1) => async (req: { query: { id: number } }) => {
    const self = await db.selectFrom('gemini_api_group').select(['id', 'parent_id', 'name', 'sort_no']).where('id', '=', req.query.id).executeTakeFirst();
    if (!self) throw new BizError(GROUP_MSG.notFound);
    await db.transaction().execute(async (trx) => {
      const sibs = await siblingsOf(trx, self.parent_id);
      const at = sibs.findIndex((s) => s.id === self.id);
      const to = at + step;
      if (to < 0 || to >= sibs.length) throw new BizError(step < 0 ? '已经是第一个，不能上移' : '已经是最后一个，不能下移');
      [sibs[at], sibs[to]] = [sibs[to], sibs[at]];
      // renumber the siblings 0..n-1 in their new order (also mends equal sort numbers)
      for (let i = 0; i < sibs.length; i++) if (sibs[i].sort_no !== i || i === at || i === to) await trx.updateTable('gemini_api_group').set({ sort_no: i }).where('id', '=', sibs[i].id).execute();
    });
    return ok(null, '保存成功');
  };
  app.get<{ Querystring: { id: number } }>('/group/up', { config: { perm: PERM.group }, schema: { querystring: idQuery } }, move(-1));
  app.get<{ Querystring: { id: number } }>('/group/down', { config: { perm: PERM.group }, schema: { querystring: idQuery } }, move(1));

  app.get<{ Querystring: { id: number } }>('/group/delete', { config: { perm: PERM.group }, schema: { querystring: idQuery } }, async (req) => {
    const self = await db.selectFrom('gemini_api_group').select(['id', 'name']).where('id', '=', req.query.id).executeTakeFirst();
    if (!self) throw new BizError(GROUP_MSG.notFound);
    const child = await db.selectFrom('gemini_api_group').select('id').where('parent_id', '=', self.id).executeTakeFirst();
    if (child) throw new BizError(GROUP_MSG.hasChildren(self.name));
    const apis = await db.selectFrom('gemini_api').select((eb) => eb.fn.countAll<number>().as('n')).where('group_id', '=', self.id).executeTakeFirst();
    if (Number(apis?.n ?? 0) > 0) throw new BizError(GROUP_MSG.hasApis(self.name, Number(apis!.n)));
    await db.deleteFrom('gemini_api_group').where('id', '=', self.id).execute();
    return ok(null, '删除成功');
  });
}
