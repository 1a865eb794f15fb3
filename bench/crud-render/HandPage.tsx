// The same page written by hand with antd, as a team would without the renderer.
import { useEffect, useState } from 'react';
import { Button, Input, Space, Table, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { answer, DICT, type BenchRow, type Query } from './data';

const COLORS: Record<string, string> = { primary: 'blue', success: 'success', info: 'default', warning: 'warning', default: 'default' };
const tag = (items: { value: unknown; label: string; dictStyle: string }[], v: unknown) => {
  const it = items.find((i) => i.value === v);
  return it ? <Tag color={COLORS[it.dictStyle]}>{it.label}</Tag> : null;
};
const size = (n: number) => (n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} B`);

export function HandPage() {
  const [q, setQ] = useState<Query>({ pageNum: 1, pageSize: 100 });
  const [data, setData] = useState<{ records: BenchRow[]; total: number }>({ records: [], total: 0 });
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    setLoading(true);
    Promise.resolve(answer(q)).then((d) => {
      setData(d);
      setLoading(false);
    });
  }, [q]);
  const order = (f: string) => (q.orderByColumn === f ? (q.isAsc === 'ascending' ? 'ascend' : 'descend') : null);
  const columns: TableColumnsType<BenchRow> = [
    { title: '序号', key: 'i', width: 60, align: 'center', render: (_v, _r, i) => i + 1 },
    { title: '名称', dataIndex: 'name', width: 140, sorter: true, sortOrder: order('name') },
    { title: '类型', dataIndex: 'dbType', width: 110, render: (v) => tag(DICT.DB_TYPE, v) },
    { title: '地址', dataIndex: 'hostName', width: 120, ellipsis: true },
    { title: '端口', dataIndex: 'port', width: 80, sorter: true, sortOrder: order('port') },
    { title: '数据库名', dataIndex: 'dbName', width: 100 },
    { title: '账号', dataIndex: 'username', width: 90 },
    { title: '密码', dataIndex: 'pwd', width: 80, render: (v) => (v ? '******' : '') },
    { title: '有效', dataIndex: 'status', width: 70, render: (v) => tag(DICT.YES_OR_NO, v) },
    { title: '大小', dataIndex: 'size', width: 90, render: (v: number) => size(v) },
    { title: '更新时间', dataIndex: 'updateTime', width: 170, render: (v) => dayjs(v).format('YYYY-MM-DD HH:mm:ss') },
    {
      title: '操作', key: 'a', width: 140, fixed: 'right',
      render: () => (
        <Space size={0}>
          <Button type="link" size="small">编辑</Button>
          <Button type="link" size="small" danger>删除</Button>
        </Space>
      ),
    },
  ];
  return (
    <div>
      <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 12 }}>
        <Space>
          <Input placeholder="请输入名称" maxLength={20} style={{ width: 240 }} allowClear />
          <Button type="primary">搜索</Button>
          <Button>重置</Button>
        </Space>
        <Button type="primary">新增</Button>
      </div>
      <Table<BenchRow>
        rowKey="id"
        size="middle"
        bordered
        columns={columns}
        dataSource={data.records}
        loading={loading}
        scroll={{ x: 'max-content' }}
        showSorterTooltip={false}
        pagination={{ current: q.pageNum, pageSize: 100, total: data.total, pageSizeOptions: [100], showSizeChanger: true, showTotal: (t) => `共 ${t} 条` }}
        onChange={(_p, _f, s) => {
          const one = Array.isArray(s) ? s[0] : s;
          setQ({ pageNum: 1, pageSize: 100, ...(one?.order ? { orderByColumn: String(one.field), isAsc: one.order === 'ascend' ? 'ascending' : 'descending' } : {}) });
        }}
      />
    </div>
  );
}
