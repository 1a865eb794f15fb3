import type { Meta, StoryObj } from '@storybook/react-vite';
import type { PageDeclaration } from '../../runtime/crud';
import { DeclaredStory, type Reply } from './DeclaredStory';

// 通用 CRUD 渲染器的声明形式：树形表格等（内存应答，不访问网络）。
const meta = {
  title: 'CRUD 渲染器/声明形式',
  component: DeclaredStory,
  parameters: { layout: 'fullscreen' },
  globals: { backgrounds: { value: 'light' } },
} satisfies Meta<typeof DeclaredStory>;

export default meta;
type Story = StoryObj<typeof meta>;

const menuRows = [
  { id: 1, parentId: 0, menuName: '系统管理', orderNum: 1, menuType: 'M', perms: '' },
  { id: 11, parentId: 1, menuName: '用户管理', orderNum: 1, menuType: 'C', perms: 'system:user:list' },
  { id: 111, parentId: 11, menuName: '用户新增', orderNum: 1, menuType: 'F', perms: 'system:user:add' },
  { id: 12, parentId: 1, menuName: '角色管理', orderNum: 2, menuType: 'C', perms: 'system:role:list' },
  { id: 2, parentId: 0, menuName: '系统监控', orderNum: 2, menuType: 'M', perms: '' },
  { id: 21, parentId: 2, menuName: '在线用户', orderNum: 1, menuType: 'C', perms: 'monitor:online:list' },
];

const menuPage = {
  id: 'menuDemo',
  title: '菜单',
  api: { search: 'POST /demo/menu/search', save: 'POST /demo/menu/save' },
  tree: { parentField: 'parentId', orderField: 'orderNum', expand: 'all' },
  columns: [
    { title: '菜单名称', field: 'menuName' },
    { title: '排序', field: 'orderNum', width: 60 },
    { title: '类型', field: 'menuType', width: 60 },
    { title: '权限标识', field: 'perms' },
    { type: 'actions', title: '操作' },
  ],
  toolbar: [{ action: 'add', label: '新增' }],
  rowActions: [{ action: 'add', asChild: true, label: '新增' }, { action: 'edit' }],
  dialog: {
    schema: {
      type: 'object',
      properties: {
        parentId: { type: 'number', title: '上级编号' },
        menuName: { type: 'string', title: '菜单名称', required: true },
        orderNum: { type: 'number', title: '显示排序' },
      },
    },
  },
} as PageDeclaration;

const menuReply: Reply = (_m, path) => (path.endsWith('/search') ? { records: menuRows, total: menuRows.length } : true);

export const TreeTable: Story = { name: '树形表格', args: { page: menuPage, reply: menuReply } };
