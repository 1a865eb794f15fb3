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

const permTree = [
  {
    key: 'system',
    title: '系统管理',
    children: [
      { key: 'system:user:list', title: '用户管理', children: [{ key: 'system:user:add', title: '用户新增' }, { key: 'system:user:edit', title: '用户修改' }] },
      { key: 'system:role:list', title: '角色管理' },
    ],
  },
  { key: 'monitor', title: '系统监控', children: [{ key: 'monitor:online:list', title: '在线用户' }] },
];

const rolePage = {
  id: 'roleDemo',
  title: '角色',
  api: { search: 'POST /demo/role/search', save: 'POST /demo/role/save' },
  columns: [{ title: '角色名称', field: 'roleName' }, { type: 'actions', title: '操作' }],
  toolbar: [{ action: 'add' }],
  rowActions: [{ action: 'edit' }],
  dialog: {
    schema: {
      type: 'object',
      properties: {
        roleName: { type: 'string', title: '角色名称', required: true },
        perms: { type: 'array', title: '菜单权限', 'x-component': 'Tree', 'x-options': { api: 'GET /demo/menu/permTree' } },
      },
    },
  },
} as PageDeclaration;

const roleReply: Reply = (_m, path) =>
  path === '/demo/menu/permTree'
    ? permTree
    : path.endsWith('/search')
      ? { records: [{ id: 1, roleName: '审计员', perms: ['system:user:list', 'system:user:add', 'system:user:edit'] }], total: 1 }
      : true;

export const TreeField: Story = { name: '弹窗里的勾选树（权限）', args: { page: rolePage, reply: roleReply, click: '修改' } };
export const TreeFieldPhone: Story = { name: '弹窗里的勾选树（390 px）', args: { page: rolePage, reply: roleReply, click: '修改', width: 390 } };

const userPage = {
  id: 'userDemo',
  title: '用户',
  api: { search: 'POST /demo/user/search', save: 'POST /demo/user/save' },
  columns: [{ title: '账号', field: 'userName' }, { title: '姓名', field: 'nickName' }, { type: 'actions', title: '操作' }],
  rowActions: [{ action: 'edit' }],
  dialog: {
    schema: {
      type: 'object',
      properties: {
        userName: { type: 'string', title: '账号' },
        nickName: { type: 'string', title: '姓名' },
        deptId: { type: 'number', title: '部门', 'x-component': 'TreeSelect', 'x-options': { api: 'GET /demo/dept/list', label: 'deptName', value: 'deptId', parentField: 'parentId' } },
        roleIds: { type: 'array', title: '角色', 'x-component-props': { mode: 'multiple' }, 'x-options': { api: 'GET /demo/role/options', label: 'roleName', value: 'roleId' } },
      },
    },
  },
} as PageDeclaration;

const userReply: Reply = (_m, path) =>
  path === '/demo/role/options'
    ? [{ roleId: 1, roleName: '超级管理员' }, { roleId: 2, roleName: '审计员' }, { roleId: 3, roleName: '开发审批' }]
    : path === '/demo/dept/list'
      ? [{ deptId: 10, parentId: 0, deptName: '总部' }, { deptId: 11, parentId: 10, deptName: '研发部' }, { deptId: 12, parentId: 10, deptName: '运维部' }]
      : path.endsWith('/search')
        ? { records: [{ id: 7, userName: 'zhangsan', nickName: '张三', deptId: 11, roleIds: [2, 3] }], total: 1 }
        : true;

export const RemoteSelect: Story = { name: '选项来自调用的选择框', args: { page: userPage, reply: userReply, click: '修改' } };

const resetPage = {
  ...userPage,
  rowActions: [
    {
      action: 'call',
      label: '重置密码',
      api: 'POST /demo/user/resetPwd',
      params: { userId: '{{id}}' },
      success: '密码已重置',
      result: { title: '新密码', field: 'password', note: '请立即告知用户，关闭后不再显示' },
      form: {
        title: '重置密码',
        defaults: { mode: 'random' },
        schema: {
          type: 'object',
          properties: {
            mode: { type: 'string', title: '方式', 'x-component': 'Radio.Group', enum: [{ label: '随机生成', value: 'random' }, { label: '由管理员设置', value: 'set' }] },
            password: {
              type: 'string',
              title: '新密码',
              'x-component': 'Password',
              'x-validator': [{ required: true, message: '请输入新密码' }],
              'x-reactions': { dependencies: ['mode'], fulfill: { state: { visible: "{{$deps[0] === 'set'}}" } } },
            },
          },
        },
      },
    },
  ],
} as PageDeclaration;

const resetReply: Reply = (m, path, sent) => (path === '/demo/user/resetPwd' ? { password: (sent.body as { password?: string })?.password ?? 'Xy3#kq9LmZ' } : userReply(m, path, sent));

export const ActionForm: Story = { name: '带表单与一次性结果的行操作', args: { page: resetPage, reply: resetReply, click: '重置密码' } };

const switchPage = {
  id: 'userSwitchDemo',
  title: '用户',
  api: { search: 'POST /demo/user/search' },
  columns: [
    { title: '账号', field: 'userName' },
    { title: '姓名', field: 'nickName' },
    { title: '状态', field: 'status', type: 'switch', call: 'POST /demo/user/changeStatus', on: '0', off: '1', confirm: '确认要{{action}}【{{userName}}】吗？' },
  ],
} as PageDeclaration;

const switchRows = [
  { id: 1, userName: 'admin', nickName: '管理员', status: '0' },
  { id: 2, userName: 'zhangsan', nickName: '张三', status: '1' },
];
const switchReply: Reply = (_m, path) => (path.endsWith('/search') ? { records: switchRows, total: switchRows.length } : true);

export const SwitchColumn: Story = { name: '开关列', args: { page: switchPage, reply: switchReply } };

const roleUsersPage = {
  id: 'roleUserDemo',
  title: '角色的用户',
  api: { search: 'POST /demo/role/users', save: 'POST /demo/role/users/add' },
  columns: [{ title: '账号', field: 'userName' }, { title: '姓名', field: 'nickName' }],
  toolbar: [{ action: 'add', label: '添加用户' }],
  dialog: { schema: { type: 'object', properties: { userName: { type: 'string', title: '账号' } } } },
} as PageDeclaration;

const rolesPage = {
  id: 'roleListDemo',
  title: '角色',
  api: { search: 'POST /demo/role/search' },
  columns: [{ title: '角色名称', field: 'roleName' }, { type: 'actions', title: '操作' }],
  rowActions: [{ action: 'subList', label: '分配用户', page: 'roleUserDemo', title: '分配用户【{{roleName}}】', params: { roleId: '{{id}}' } }],
} as PageDeclaration;

const subReply: Reply = (_m, path) =>
  path === '/demo/role/search'
    ? { records: [{ id: 2, roleName: '审计员' }], total: 1 }
    : path === '/demo/role/users'
      ? { records: [{ id: 7, userName: 'zhangsan', nickName: '张三' }, { id: 8, userName: 'lisi', nickName: '李四' }], total: 2 }
      : true;

export const SubList: Story = { name: '打开子列表的行操作', args: { page: rolesPage, reply: subReply, pages: { roleUserDemo: roleUsersPage }, click: '分配用户' } };
