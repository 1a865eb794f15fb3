// GET /api/menu/routes/get?moduleType=platform: the menu tree the signed-in user may see.
import type { Migration } from 'kysely';
import { ok } from '../../core/envelope.js';
import type { ServerModule } from '../../core/module.js';
import { migration } from '../../core/tables.js';
import { idColumn, linkTable } from '../../store/columns.js';
import { applyShippedMenus, type ShippedMenus } from '../../core/menus.js';

function migrations(): Record<string, Migration> {
  return {
    '20261122_02_menu': migration(async (db, dialect) => {
      await idColumn(db.schema.createTable('sys_menu'), dialect)
        .addColumn('menu_key', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('parent_key', 'varchar(64)')
        .addColumn('module_type', 'varchar(32)', (c) => c.notNull())
        .addColumn('order_num', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('entry', 'text', (c) => c.notNull())
        .addColumn('custom', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await linkTable(db.schema.createTable('sys_role_menu'), 'sys_role_menu_pk', ['role_key', 'varchar(32)'], ['menu_key', 'varchar(64)']).execute();
    }),
  };
}

export function menuModule(): ServerModule {
  return {
    name: 'menu',
    prefix: '/api/menu',
    service: 'admin',
    migrations: migrations(),
    needs: ['menus'],
    // the declared menus (schemas/menus): all on the first start, afterwards what the declaration changed;
    // entries published from the page manager stay
    seed: async (db, { schemas, shipped }) => {
      const menus: ShippedMenus = Object.fromEntries(Object.entries(schemas.menus).map(([type, m]) => [type, { items: m.items }]));
      const change = await shipped('menus', menus);
      if (change.changed) await applyShippedMenus(db, menus, change.before);
    },
    plugin: async (app) => {
      app.get<{ Querystring: { moduleType?: string } }>(
        '/routes/get',
        { config: { beforePasswordChange: true }, schema: { querystring: { type: 'object', properties: { moduleType: { type: 'string', maxLength: 32, pattern: '^[a-zA-Z_-]+$', title: '模块' } } } } },
        async (req) => ok(await app.menus.treeFor(req.query.moduleType ?? 'platform', req.user!.roles)),
      );
      // Does some entry route this path (for anyone)? The shell asks for a path the user's menu does not route,
      // to show 无权限访问 (401) instead of 404. Yes or no for the path asked, nothing else.
      app.get<{ Querystring: { moduleType?: string; path: string } }>(
        '/routes/exists',
        {
          config: { beforePasswordChange: true },
          schema: {
            querystring: {
              type: 'object',
              required: ['path'],
              properties: {
                moduleType: { type: 'string', maxLength: 32, pattern: '^[a-zA-Z_-]+$', title: '模块' },
                path: { type: 'string', minLength: 1, maxLength: 300, pattern: '^/', title: '路径', description: '以 / 开头的页面地址' },
              },
            },
          },
        },
        async (req) => ok({ exists: await app.menus.routeExists(req.query.moduleType ?? 'platform', req.query.path) }),
      );
    },
  };
}
