// The list benchmark's page: 30 columns (selection, index, a fixed-left kind of name, dictionary tags, yes/no,
// date-time, date, file size, masked password, version, numbers, long text with ellipsis, plain text, the row
// actions fixed on the right), and the rows its list call answers, made once per size.
import type { PageDeclaration, Row } from '../../runtime/crud/types';

const PLAIN = 16; // plain text columns, so that the page has 30 in all

export function declaration(size: number): PageDeclaration {
  return {
    id: 'listBench',
    title: '列表基准',
    pageSize: size,
    pageSizes: [50, 100, 200, 500],
    selectable: true,
    api: { search: 'POST /bench/list', save: 'POST /bench/save', delete: 'GET /bench/delete' },
    search: { placeholder: '请输入名称' },
    columns: [
      { title: '序号', type: 'index' },
      { title: '名称', field: 'name', sortable: true, width: 140 },
      { title: '类型', field: 'dbType', dict: 'DB_TYPE' },
      { title: '环境', field: 'envType', dict: 'ENV_TYPE' },
      { title: '有效', field: 'status', format: 'yesno' },
      { title: '创建时间', field: 'createTime', format: 'datetime', sortable: true },
      { title: '生效日期', field: 'day', format: 'date' },
      { title: '大小', field: 'size', format: 'filesize', sortable: true },
      { title: '密码', field: 'pwd', format: 'password' },
      { title: '版本', field: 'version', format: 'version' },
      { title: '端口', field: 'port', width: 80, sortable: true },
      { title: '描述', field: 'remark', width: 200, ellipsis: true },
      ...Array.from({ length: PLAIN }, (_, i) => ({ title: `字段${i + 1}`, field: `f${i}` })),
      { title: '操作', type: 'actions' },
    ],
    toolbar: [{ action: 'add', label: '新增' }],
    rowActions: [{ action: 'edit', label: '修改' }, { action: 'copy', label: '复制' }, { action: 'delete', label: '删除' }],
  };
}

const TYPES = ['mysql', 'postgresql', 'sqlite', 'mariadb'];
const ENVS = ['dev', 'prod'];

export function makeRows(n: number, from = 0): Row[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const row: Row = {
      id: i + 1,
      name: `供应商${String(i + 1).padStart(6, '0')}`,
      dbType: TYPES[i % 4],
      envType: ENVS[i % 2],
      status: i % 5 ? 1 : 0,
      createTime: 1_760_000_000_000 + i * 3_600_000,
      day: 1_760_000_000_000 + i * 86_400_000,
      size: (i * 7919) % 10_000_000,
      pwd: 'secret',
      version: (i % 9) + 1,
      port: 3000 + ((i * 13) % 1000),
      remark: `第 ${i + 1} 行的说明，一段较长的文字，超出列宽时以省略号结尾，鼠标悬停时显示全文`,
    };
    for (let c = 0; c < PLAIN; c++) row[`f${c}`] = `值${i + 1}-${c + 1}`;
    return row;
  });
}
