// A related record's select (issue 34 item 3): `x-component: RelationSelect` on a field of a page on a table whose
// column references another table (source.relations). The options are the related table's rows, asked of the page's
// options call a page at a time: searched by their label on the server, the next page read when the list is
// scrolled to its end, and the current value's label asked for by its key (it may lie beyond the first page).
import { useEffect, useRef, useState } from 'react';
import { Select, Spin } from 'antd';
import type { SelectProps } from 'antd';
import { useCrudServices } from '../services';
import { parseCall } from '../template';

type Key = string | number;
interface Option {
  value: Key;
  label: string;
}
interface Answer {
  records: Option[];
  total: number;
}

const PAGE = 20;

export interface RelationSelectProps extends Omit<SelectProps, 'options' | 'onSearch'> {
  /** the page's column the related rows are for */
  field: string;
  /** the page's options call (its api.options), filled by the dialog from the page's calls */
  call?: string;
}

export function RelationSelect({ field, call, value, ...rest }: RelationSelectProps) {
  const services = useCrudServices();
  const [options, setOptions] = useState<Option[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const asked = useRef({ text: '', page: 0, seq: 0 });

  const ask = async (body: Record<string, unknown>): Promise<Answer | null> => {
    if (!call) return null;
    const { method, path } = parseCall(call);
    return services.request<Answer>(method, path, { body: { field, ...body } });
  };

  /** page `page` of the rows whose label holds `text`; a later question wins over an earlier one still under way */
  const load = (text: string, page: number) => {
    const seq = ++asked.current.seq;
    asked.current = { text, page, seq };
    setLoading(true);
    setFailed(false);
    ask({ search: text || null, pageNum: page, pageSize: PAGE })
      .then((a) => {
        if (seq !== asked.current.seq || !a) return;
        setTotal(a.total);
        setOptions((had) => (page === 1 ? a.records : [...had, ...a.records.filter((r) => !had.some((h) => h.value === r.value))]));
      })
      .catch(() => seq === asked.current.seq && setFailed(true))
      .finally(() => seq === asked.current.seq && setLoading(false));
  };

  useEffect(() => {
    load('', 1);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per mounted dialog
  }, [call, field]);

  // the current value shown by its label even when it is not among the rows read so far
  const [current, setCurrent] = useState<Option | null>(null);
  useEffect(() => {
    if (value === undefined || value === null || value === '' || options.some((o) => o.value === value) || current?.value === value) return;
    let live = true;
    ask({ values: [value], pageSize: 1 })
      .then((a) => live && a?.records[0] && setCurrent(a.records[0]))
      .catch(() => undefined);
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- asked again only for another value
  }, [value]);

  const shown = current && !options.some((o) => o.value === current.value) ? [current, ...options] : options;
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  return (
    <Select
      allowClear
      showSearch
      filterOption={false}
      placeholder="请选择"
      {...rest}
      value={value}
      options={shown}
      loading={loading}
      onSearch={(text) => {
        clearTimeout(timer.current);
        timer.current = setTimeout(() => load(text.trim(), 1), 300);
      }}
      onDropdownVisibleChange={(open) => {
        if (!open && asked.current.text) load('', 1);
      }}
      onPopupScroll={(e) => {
        const el = e.currentTarget as HTMLElement;
        if (!loading && options.length < total && el.scrollTop + el.clientHeight >= el.scrollHeight - 24) load(asked.current.text, asked.current.page + 1);
      }}
      notFoundContent={loading ? <Spin size="small" /> : failed ? '加载失败' : '暂无数据'}
      dropdownRender={(menu) => (
        <>
          {menu}
          {options.length > 0 && <div style={{ padding: '4px 12px', color: '#8c8c8c', fontSize: 12 }}>{options.length < total ? `已显示 ${options.length} / ${total} 条，向下滚动加载更多` : `共 ${total} 条`}</div>}
        </>
      )}
    />
  );
}
