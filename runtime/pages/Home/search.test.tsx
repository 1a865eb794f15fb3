import { matchMenus } from './search';
import type { MenuEntry } from '../../shell/menu';

const menus: MenuEntry[] = [
  { key: 'home', name: '首页', type: 'C', path: '/index' },
  {
    key: 'data', name: '数据管理', type: 'M', path: '/data',
    children: [
      { key: 'datasource', name: '数据源管理', type: 'C', path: '/data/datasource', children: [{ key: 'ds-add', name: '新增数据源', type: 'F' }] },
      { key: 'rel', name: '变量管理', type: 'C', path: 'variable' },
      { key: 'hidden', name: '数据源详情', type: 'V', path: '/data/datasource/detail', hidden: true },
    ],
  },
  { key: 'help', name: '帮助文档（外部）', type: 'C', link: 'https://help.example/x', newTab: true },
  { key: 'custom', name: '自定义页面', type: 'M', path: '/custom', children: [{ key: 'lowcode-supplier', name: '供应商', type: 'C', path: '/custom/supplier' }] },
];

describe('home search over the menu', () => {
  it('finds menu pages by name, case-insensitively, with the directories they sit in', () => {
    expect(matchMenus(menus, '数据源')).toEqual([{ kind: '菜单', name: '数据源管理', to: '/data/datasource', external: false, extra: '数据管理' }]);
    expect(matchMenus(menus, ' 供应 ')).toEqual([{ kind: '菜单', name: '供应商', to: '/custom/supplier', external: false, extra: '自定义页面' }]);
    expect(matchMenus(menus, '变量')[0].to).toBe('/data/variable');
  });
  it('leaves out directories, buttons and hidden pages; outside links open as such', () => {
    expect(matchMenus(menus, '管理').map((h) => h.name)).toEqual(['数据源管理', '变量管理']);
    expect(matchMenus(menus, '新增')).toEqual([]);
    expect(matchMenus(menus, '文档')).toEqual([{ kind: '菜单', name: '帮助文档（外部）', to: 'https://help.example/x', external: true, extra: undefined }]);
    expect(matchMenus(menus, '  ')).toEqual([]);
  });
});
