import type { PageDeclaration } from '../../runtime/crud/types';

// 12 columns: index + 10 data columns + actions.
export const declaration: PageDeclaration = {
  id: 'bench',
  title: '基准',
  pageSize: 100,
  pageSizes: [100],
  api: { search: 'POST /bench/search', save: 'POST /bench/save', delete: 'GET /bench/delete' },
  search: { placeholder: '请输入名称', maxLength: 20 },
  columns: [
    { title: '序号', type: 'index', width: 60 },
    { title: '名称', field: 'name', width: 140, sortable: true },
    { title: '类型', field: 'dbType', width: 110, dict: 'DB_TYPE' },
    { title: '地址', field: 'hostName', width: 120, ellipsis: true },
    { title: '端口', field: 'port', width: 80, sortable: true },
    { title: '数据库名', field: 'dbName', width: 100 },
    { title: '账号', field: 'username', width: 90 },
    { title: '密码', field: 'pwd', width: 80, format: 'password' },
    { title: '有效', field: 'status', width: 70, format: 'yesno' },
    { title: '大小', field: 'size', width: 90, format: 'filesize' },
    { title: '更新时间', field: 'updateTime', width: 170, format: 'datetime' },
    { title: '操作', type: 'actions', width: 140 },
  ],
  toolbar: [{ action: 'add', label: '新增' }],
  rowActions: [{ action: 'edit', label: '编辑' }, { action: 'delete', label: '删除' }],
};
