// Shared fixture for both pages: 100 rows × 12 columns, and a sorting "server" without a network.
export interface BenchRow { [k: string]: unknown; id: number }

export const ROWS: BenchRow[] = Array.from({ length: 100 }, (_, i) => ({
  id: i + 1,
  name: `数据源${String((i * 37 + 11) % 100).padStart(3, "0")}`,
  dbType: ['mysql', 'postgresql', 'sqlite', 'mariadb'][i % 4],
  hostName: `10.0.${i % 7}.${i}`,
  port: 3000 + ((i * 13) % 1000),
  dbName: `db_${i}`,
  username: `user${i % 9}`,
  pwd: 'secret',
  status: i % 3 ? 1 : 0,
  size: (i * 7919) % 100000,
  updateTime: 1_700_000_000_000 + i * 3_600_000,
}));

export interface Query { pageNum?: number; pageSize?: number; orderByColumn?: string; isAsc?: 'ascending' | 'descending' }

/** What the search call would answer: the rows sorted by the query. */
export function answer(q: Query): { records: BenchRow[]; total: number } {
  let rows = ROWS;
  if (q.orderByColumn) {
    const k = q.orderByColumn;
    const dir = q.isAsc === 'descending' ? -1 : 1;
    rows = [...ROWS].sort((a, b) => (a[k]! < b[k]! ? -dir : a[k]! > b[k]! ? dir : 0));
  }
  const size = q.pageSize ?? 100;
  const start = ((q.pageNum ?? 1) - 1) * size;
  return { records: rows.slice(start, start + size), total: ROWS.length };
}

export const DICT = {
  DB_TYPE: [
    { value: 'mysql', label: 'MySQL', dictStyle: 'primary' },
    { value: 'postgresql', label: 'PostgreSQL', dictStyle: 'success' },
    { value: 'sqlite', label: 'SQLite', dictStyle: 'info' },
    { value: 'mariadb', label: 'MariaDB', dictStyle: 'warning' },
  ],
  YES_OR_NO: [
    { value: 1, label: '是', dictStyle: 'success' },
    { value: 0, label: '否', dictStyle: 'default' },
  ],
};
