// 菜单管理 (issue 21 item 3): the menu tree (sys_menu, core/menus.ts) as a tree table declared in
// schemas/pages/menu.page.json. The list answers flat rows with their parent's id (the renderer nests them);
// an entry's key is its stable name (roles grant by it, seeding finds it) and never changes. A change shows in
// users' menus on their next load (menus are read from the store per request); seeded entries an admin changed
// stay changed across restarts (core/menus.ts applies only what the shipped files change).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { MENU_ICONS } from '../../../common/menu-icons.js';
import type { Item as MenuEntry } from '../../../schemas/generated/menu.js';
import { assertPermission } from '../../core/auth.js';
import { checkBody, idQuery, requirePage } from '../../core/declarations.js';
import { BizError, ok } from '../../core/envelope.js';
import { ALL_PERMISSIONS } from '../../core/permissions.js';
import { assertHolds } from './access.js';
import { freeKey } from '../../core/workspace.js';
import type { Database } from '../../store/schema.js';

export const MSG_MENU_NOT_FOUND = '菜单不存在';
export const MSG_EMPTY_PERMS = '清空菜单的权限标识需要管理员：没有权限标识的菜单，任何能编辑角色的人都能授予';
const MODULE_TYPE = 'platform';

interface Row {
  id: number;
  menu_key: string;
  parent_key: string | null;
  order_num: number;
  entry: string;
  custom: number;
}

const rowsOf = (db: Kysely<Database>) => db.selectFrom('sys_menu').select(['id', 'menu_key', 'parent_key', 'order_num', 'entry', 'custom']).where('module_type', '=', MODULE_TYPE).orderBy('order_num').orderBy('id').execute() as Promise<Row[]>;

/** What 菜单管理's dialog edits of an entry (what its page shows, and what its version keeps). */
function dialogFields(e: MenuEntry, orderNum: number) {
  return {
    name: e.name,
    type: e.type,
    path: e.path ?? null,
    component: e.component ?? null,
    link: e.link ?? null,
    newTab: e.newTab === true,
    icon: e.icon ?? null,
    hidden: e.hidden === true,
    cache: e.cache !== false,
    perms: e.perms ?? null,
    orderNum,
  };
}

/** One entry as the page shows it. */
function answer(r: Row, idOfKey: Map<string, number>) {
  return {
    id: r.id,
    parentId: r.parent_key ? (idOfKey.get(r.parent_key) ?? 0) : 0,
    menuKey: r.menu_key,
    ...dialogFields(JSON.parse(r.entry) as MenuEntry, r.order_num),
    custom: r.custom,
  };
}

export function menuRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  const page = requirePage(app.ctx.schemas.pages, 'menu');

  app.post('/menu/list', { config: { perm: 'system:menu:list' }, schema: { body: { type: ['object', 'null'], properties: { pageNum: { type: 'integer', minimum: 1 }, pageSize: { type: 'integer', minimum: 1, maximum: 500 } } } } }, async () => {
    const rows = await rowsOf(db);
    const idOfKey = new Map(rows.map((r) => [r.menu_key, r.id]));
    return ok({ records: rows.map((r) => answer(r, idOfKey)), total: rows.length });
  });

  app.get<{ Querystring: { id: number } }>('/menu/get', { config: { perm: 'system:menu:list' }, schema: { querystring: idQuery } }, async (req) => {
    const rows = await rowsOf(db);
    const row = rows.find((r) => r.id === req.query.id);
    if (!row) throw new BizError(MSG_MENU_NOT_FOUND);
    return ok(answer(row, new Map(rows.map((r) => [r.menu_key, r.id]))));
  });

  // the parent picker: directories and pages, under a root 主类目 (id 0)
  app.get('/menu/options', { config: { perm: 'system:menu:list' } }, async () => {
    const rows = await rowsOf(db);
    const idOfKey = new Map(rows.map((r) => [r.menu_key, r.id]));
    const opts = rows.filter((r) => (JSON.parse(r.entry) as MenuEntry).type !== 'F').map((r) => ({ id: r.id, parentId: r.parent_key ? (idOfKey.get(r.parent_key) ?? 0) : 0, name: (JSON.parse(r.entry) as MenuEntry).name }));
    return ok([{ id: 0, parentId: null, name: '主类目' }, ...opts.map((o) => ({ ...o, parentId: o.parentId || 0 }))]);
  });

  app.get('/menu/icons', { config: { perm: 'system:menu:list' } }, async () => ok(MENU_ICONS.map((name) => ({ value: name, label: name }))));

  app.post<{ Body: Record<string, any> }>('/menu/save', { config: { perm: 'system:menu:list' }, schema: { body: { type: 'object', properties: { id: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647, title: '编号' }, parentId: { type: ['integer', 'null'], minimum: 0, maximum: 2147483647, title: '上级菜单' } } } } }, async (req) => ok(await saveMenu(req, req.body), '保存成功'));

  /** Saves an entry (new, or by id) with every check and keeps it as a version (issue 37); answers its id. */
  async function saveMenu(req: FastifyRequest, sent: Record<string, any>, note?: string): Promise<number> {
    return writeMenu(db, await prepareMenu(req, sent), req, note);
  }

  /** Checks an entry to save as every save is checked; answers what writeMenu writes (a workspace import's check too). */
  async function prepareMenu(req: FastifyRequest, sent: Record<string, any>) {
    const body = { ...sent };
    const id: number | undefined = body.id ?? undefined;
    assertPermission(req, id ? 'system:menu:edit' : 'system:menu:add');
    const rows = await rowsOf(db);
    const stored = id ? rows.find((r) => r.id === id) : undefined;
    if (id && !stored) throw new BizError(MSG_MENU_NOT_FOUND);
    if (stored) body.menuKey = stored.menu_key; // the key never changes
    const rec = checkBody(page, body, { dicts: await app.dicts.current(), applyDefaults: !stored }) as Record<string, any>;
    const key = String(rec.menuKey);
    if (!stored && rows.some((r) => r.menu_key === key)) throw new BizError(`菜单标识【${key}】已存在`);

    // the parent: none (主类目) or an entry that is not this one nor below it, and not a button
    const parentId = Number(body.parentId ?? 0);
    let parentKey: string | null = null;
    if (parentId) {
      const parent = rows.find((r) => r.id === parentId);
      if (!parent) throw new BizError('上级菜单不存在');
      if ((JSON.parse(parent.entry) as MenuEntry).type === 'F') throw new BizError('按钮下不能再添加菜单');
      const byKey = new Map(rows.map((r) => [r.menu_key, r]));
      for (let k: string | null = parent.menu_key, depth = 0; k && depth < 64; k = byKey.get(k)?.parent_key ?? null, depth++) {
        if (k === key) throw new BizError('上级菜单不能是它自己或它的下级');
      }
      parentKey = parent.menu_key;
    }
    const type = rec.type as MenuEntry['type'];
    if (type !== 'F' && !rec.path && !rec.link) throw new BizError('请输入路由地址');
    if (rec.component && String(rec.component).startsWith('page:') && !app.ctx.schemas.pages[String(rec.component).slice(5)]) {
      const custom = await db.selectFrom('lowcode_page').select('id').where('page_key', '=', String(rec.component).slice(5)).where('deleted_time', 'is', null).executeTakeFirst();
      if (!custom) throw new BizError(`页面【${String(rec.component).slice(5)}】不存在：请填写已声明的页面或页面管理里发布的页面`);
    }
    // what an entry declares (schemas/meta/menu.schema.json), keeping what this dialog does not edit
    const before = stored ? (JSON.parse(stored.entry) as MenuEntry) : ({} as Partial<MenuEntry>);
    const entry: MenuEntry = { ...before, key, name: String(rec.name).trim(), type };
    const set = <K extends keyof MenuEntry>(k: K, v: MenuEntry[K] | null | undefined) => {
      if (v === null || v === undefined || v === '' || v === false) delete entry[k];
      else entry[k] = v;
    };
    set('path', type === 'F' ? null : rec.path);
    set('component', type === 'F' || type === 'M' ? null : rec.component);
    set('link', type === 'F' ? null : rec.link);
    set('newTab', rec.newTab === true);
    set('icon', rec.icon);
    set('hidden', rec.hidden === true);
    if (rec.cache === false) entry.cache = false;
    else delete entry.cache;
    set('perms', rec.perms);
    // an entry's permission string is what makes granting it mean something (issue 40): a page keeps one unless
    // the administrator empties it, and whoever changes it holds both the old and the new string
    const oldPerms = before.perms ?? '';
    const newPerms = entry.perms ?? '';
    if (oldPerms !== newPerms) {
      // (a page turned into a directory on the way empties it too: only a directory that was one keeps none freely)
      if (oldPerms && !newPerms && (type !== 'M' || before.type !== 'M')) assertHolds(req, [ALL_PERMISSIONS], MSG_EMPTY_PERMS);
      assertHolds(req, [oldPerms, newPerms].filter(Boolean));
    }
    const values = { parent_key: parentKey, order_num: rec.orderNum ?? 0, entry: JSON.stringify(entry) };
    return { stored, key, entry, values };
  }

  /** Writes a checked entry (in `on`: the store, or an import's transaction) and keeps its version; answers its id. */
  async function writeMenu(on: Kysely<Database>, p: Awaited<ReturnType<typeof prepareMenu>>, req: FastifyRequest, note?: string): Promise<number> {
    const { stored, key, entry, values } = p;
    if (stored) await on.updateTable('sys_menu').set(values).where('id', '=', stored.id).execute();
    else await on.insertInto('sys_menu').values({ ...values, menu_key: key, module_type: MODULE_TYPE, custom: 1 }).execute();
    const saved = await on.selectFrom('sys_menu').select('id').where('menu_key', '=', key).executeTakeFirstOrThrow();
    await app.versions.record('menu', key, versionOf(entry, values.parent_key, values.order_num), req, { title: entry.name, note: note ?? null }, on);
    return saved.id;
  }

  /** What a menu entry's version holds: what its dialog edits, the parent by key. */
  const versionOf = (e: MenuEntry, parentKey: string | null, orderNum: number) => ({ menuKey: e.key, parentKey, ...dialogFields(e, orderNum) });

  // versions of menu entries: seen and restored by those who may edit menus, through the same save (its checks:
  // a parent that is gone puts the entry at the top level, a changed permission string asks who holds it)
  app.versions.register({
    kind: 'menu',
    perm: 'system:menu:edit',
    current: async (key) => {
      const r = (await rowsOf(db)).find((x) => x.menu_key === key);
      return r ? { title: (JSON.parse(r.entry) as MenuEntry).name, content: versionOf(JSON.parse(r.entry) as MenuEntry, r.parent_key, r.order_num) } : null;
    },
    restore: async (key, content, req, note) => {
      const rows = await rowsOf(db);
      const r = rows.find((x) => x.menu_key === key);
      if (!r) throw new BizError(MSG_MENU_NOT_FOUND);
      const { parentKey, ...v } = content as ReturnType<typeof versionOf>;
      const parentId = parentKey ? (rows.find((x) => x.menu_key === parentKey)?.id ?? 0) : 0;
      await saveMenu(req, { ...v, id: r.id, parentId }, note);
    },
  });

  // workspace export and import (issue 37 item 3): an entry by its key, as its version holds it (the parent by key);
  // checked as 菜单管理's save checks it; a parent the file brings along is set at the write
  const menuItem = async (key: string) => {
    const r = (await rowsOf(db)).find((x) => x.menu_key === key);
    if (!r) return null;
    const content = versionOf(JSON.parse(r.entry) as MenuEntry, r.parent_key, r.order_num);
    // a parent an admin added travels with it (a shipped one is in every deployment)
    const parent = r.parent_key ? (await rowsOf(db)).find((x) => x.menu_key === r.parent_key) : undefined;
    const deps = [...(parent && Number(parent.custom) === 1 ? [{ kind: 'menu' as const, key: parent.menu_key }] : []), ...(content.component?.startsWith('page:') && !app.ctx.schemas.pages[content.component.slice(5)] ? [{ kind: 'page' as const, key: content.component.slice(5) }] : [])];
    return { kind: 'menu' as const, key, title: content.name, content, deps };
  };
  app.workspace.register<{ p: Awaited<ReturnType<typeof prepareMenu>>; parentKey: string | null; page: string | null }>({
    kind: 'menu',
    readPerm: 'system:menu:list',
    writePerm: 'system:menu:add',
    // the entries admins added (a published page's own entry travels with the page)
    list: async () =>
      (await rowsOf(db)).filter((r) => Number(r.custom) === 1 && !r.menu_key.startsWith('lowcode-')).map((r) => ({ key: r.menu_key, title: `${(JSON.parse(r.entry) as MenuEntry).name}（${r.menu_key}）` })),
    read: menuItem,
    existing: menuItem,
    prepare: async (item, ctx, mode, key) => {
      const { parentKey, menuKey: _k, ...v } = item.content as ReturnType<typeof versionOf>;
      const rows = await rowsOf(db);
      const stored = mode === 'replace' ? rows.find((r) => r.menu_key === key) : undefined;
      // a parent here is checked as the dialog's choice; one the file brings is set at the write
      const parent = parentKey ? rows.find((r) => r.menu_key === parentKey) : undefined;
      if (parentKey && !parent && !ctx.inFile('menu', parentKey)) throw new BizError(`上级菜单「${parentKey}」不在文件中，本环境也没有`);
      const carriedParent = parentKey && !parent ? ctx.fileItems('menu').find((m) => m.key === parentKey) : undefined;
      if (carriedParent && (carriedParent.content as { type?: string }).type === 'F') throw new BizError('按钮下不能再添加菜单');
      // a page the file brings is written before its entry: its declared component is checked against the file
      const page = typeof v.component === 'string' && v.component.startsWith('page:') ? v.component.slice(5) : null;
      const carried = page && !app.ctx.schemas.pages[page] && ctx.inFile('page', page);
      const p = await prepareMenu(ctx.req, { ...v, ...(carried ? { component: null } : {}), id: stored?.id, menuKey: key, parentId: parent?.id ?? 0 });
      return { p, parentKey: parentKey ?? null, page: carried ? page : null };
    },
    write: async ({ p, parentKey, page }, on, ctx) => {
      // what the file brings is named as it was written here (a copy under its new key)
      if (parentKey) p.values.parent_key = ctx.keyOf('menu', parentKey);
      if (page) {
        p.entry.component = `page:${ctx.keyOf('page', page)}`;
        p.values.entry = JSON.stringify(p.entry);
      }
      await writeMenu(on, p, ctx.req, '工作区导入');
      // entries imported together must not end up each other's parents
      const parents = new Map((await on.selectFrom('sys_menu').select(['menu_key', 'parent_key']).where('module_type', '=', MODULE_TYPE).execute()).map((r) => [r.menu_key, r.parent_key]));
      for (let k = parents.get(p.key) ?? null, depth = 0; k; k = parents.get(k) ?? null, depth++) if (k === p.key || depth > 64) throw new BizError(`菜单「${p.entry.name}」的上级形成了循环`);
      return p.key;
    },
    copyKey: async (key) => {
      const rows = await rowsOf(db);
      return freeKey(key, 50, async (k) => rows.some((r) => r.menu_key === k));
    },
  });

  app.post<{ Querystring: { id: number } }>('/menu/delete', { config: { perm: 'system:menu:remove' }, schema: { querystring: idQuery } }, async (req) => {
    const rows = await rowsOf(db);
    const row = rows.find((r) => r.id === req.query.id);
    if (!row) throw new BizError(MSG_MENU_NOT_FOUND);
    const children = rows.filter((r) => r.parent_key === row.menu_key).length;
    if (children) throw new BizError(`【${(JSON.parse(row.entry) as MenuEntry).name}】下还有 ${children} 个子菜单，请先删除它们`);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_role_menu').where('menu_key', '=', row.menu_key).execute();
      await trx.deleteFrom('sys_menu').where('id', '=', row.id).execute();
    });
    return ok(null, '删除成功');
  });
}
