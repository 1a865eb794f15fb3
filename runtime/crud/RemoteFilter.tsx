import { useEffect, useState } from 'react';
import { Button, Select, Space } from 'antd';
import type { FilterDropdownProps } from 'antd/es/table/interface';
import { useCrudServices } from './services';
import { parseCall } from './template';

type Item = Record<string, unknown>;
const toOption = (it: Item | string) =>
  typeof it === 'string'
    ? { value: it, label: it }
    : { value: String(it.value ?? it.text ?? it.id ?? it.name), label: String(it.label ?? it.text ?? it.name ?? it.value) };

/** Column filter whose options come from a remote search (e.g. GET /gemini/datasource/select). */
export function RemoteFilter({ api, selectedKeys, setSelectedKeys, confirm, clearFilters }: FilterDropdownProps & { api: string }) {
  const services = useCrudServices();
  const [text, setText] = useState('');
  const [options, setOptions] = useState<{ value: string; label: string }[]>([]);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    let live = true;
    const t = setTimeout(() => {
      const { method, path } = parseCall(api);
      setLoading(true);
      services
        .request<Item[] | { records: Item[] }>(method, path, method === 'GET' ? { params: { search: text } } : { body: { search: text } })
        .then((d) => live && setOptions((Array.isArray(d) ? d : (d?.records ?? [])).map(toOption)))
        .catch(() => live && setOptions([]))
        .finally(() => live && setLoading(false));
    }, 300);
    return () => { live = false; clearTimeout(t); };
  }, [api, text, services]);
  return (
    <div style={{ padding: 8, width: 240 }} onKeyDown={(e) => e.stopPropagation()}>
      <Select
        mode="multiple"
        showSearch
        filterOption={false}
        onSearch={setText}
        loading={loading}
        value={selectedKeys as string[]}
        onChange={(v) => setSelectedKeys(v)}
        options={options}
        placeholder="输入关键字搜索"
        style={{ width: '100%', marginBottom: 8 }}
      />
      <Space>
        <Button type="primary" size="small" onClick={() => confirm()}>确定</Button>
        <Button size="small" onClick={() => { clearFilters?.(); confirm(); }}>重置</Button>
      </Space>
    </div>
  );
}
