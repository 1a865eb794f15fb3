// 日志监控 (spec part 1 "Log monitor"): server ip, service (SERVER_NAME, default the development platform),
// search text (max 20), page size 10 / 50 / 100 (default 50); the records, newest first, in a read-only pane.
import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Card, Input, Pagination, Select, Space, Typography } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { post } from '../../core/request';
import { useDict } from '../../core/dicts';
import { CodeEditor } from '../../ui/CodeEditor';

interface LogRecord {
  line: string;
}
interface LogPage {
  records: LogRecord[];
  total: number;
  more?: boolean;
  partial?: boolean;
  /** the server instance whose files were read (INSTANCE_ID), when instances share a data folder */
  instance?: string | null;
}
/** How many lines match (POST /monitor/log/count): exact, or a lower bound when counting ran out of time. */
interface LogCount {
  total: number;
  exact: boolean;
}

/**
 * What the pager says: the exact total once it is known (or once the page reached the oldest line); else the
 * lines known so far with a 「+」 and one page more to go to — never an invented total.
 */
export function pagerTotal(page: Pick<LogPage, 'total' | 'more' | 'partial'> | null, count: LogCount | null): { total: number; text: string } {
  // (a count older than the page — lines written since — is only a lower bound)
  if (count?.exact && (!page || page.total <= count.total)) return { total: count.total, text: `共 ${count.total} 条` };
  if (page && !page.more && !page.partial) return { total: page.total, text: `共 ${page.total} 条` };
  // page.total is the lines up to this page plus 1 while more exist: at least that many match
  const known = Math.max(count?.total ?? 0, page?.total ?? 0);
  return { total: known, text: page || count ? `共 ${known}+ 条` : '' };
}

interface Query {
  ip: string;
  serveName: string;
  search: string;
  pageNum: number;
  pageSize: number;
}

export default function LogMonitor() {
  const services = useDict('SERVER_NAME');
  const [draft, setDraft] = useState({ ip: '', serveName: 'platform', search: '' });
  const [query, setQuery] = useState<Query>({ ip: '', serveName: 'platform', search: '', pageNum: 1, pageSize: 50 });
  const [page, setPage] = useState<LogPage | null>(null);
  const [loading, setLoading] = useState(false);

  const [count, setCount] = useState<LogCount | null>(null);
  const [reloads, setReloads] = useState(0);

  const load = useCallback(async (q: Query) => {
    setLoading(true);
    try {
      setPage(await post<LogPage>('/monitor/log/searchList', { ...q, ip: q.ip.trim() || null, search: q.search.trim() || null }));
    } catch {
      /* the request layer showed why */
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => void load(query), [load, query]);

  // the total is counted once per filter (and on 刷新), not at every page: counting reads the whole files
  const { ip, serveName, search } = query;
  useEffect(() => {
    let live = true;
    setCount(null);
    post<LogCount>('/monitor/log/count', { serveName, ip: ip.trim() || null, search: search.trim() || null }, { silent: true }).then(
      (c) => live && setCount(c),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [ip, serveName, search, reloads]);
  const shownTotal = pagerTotal(page, count);

  const apply = () => setQuery((q) => ({ ...q, ...draft, pageNum: 1 }));
  const text = page ? page.records.map((r) => r.line).join('\n') : '';

  return (
    <Card size="small" title="日志监控">
      <Space wrap style={{ marginBottom: 12 }}>
        <Input aria-label="服务器IP" placeholder="服务器IP" maxLength={64} allowClear style={{ width: 160 }} value={draft.ip} onChange={(e) => setDraft((d) => ({ ...d, ip: e.target.value }))} onPressEnter={apply} />
        <Select
          aria-label="服务名称"
          style={{ width: 160 }}
          value={draft.serveName}
          options={services.map((s) => ({ value: String(s.value), label: s.label }))}
          onChange={(serveName) => {
            setDraft((d) => ({ ...d, serveName }));
            setQuery((q) => ({ ...q, ...draft, serveName, pageNum: 1 }));
          }}
        />
        <Input aria-label="搜索" placeholder="请输入搜索内容" maxLength={20} allowClear style={{ width: 220 }} value={draft.search} onChange={(e) => setDraft((d) => ({ ...d, search: e.target.value }))} onPressEnter={apply} />
        <Button type="primary" icon={<SearchOutlined />} onClick={apply}>
          搜索
        </Button>
        <Button
          icon={<ReloadOutlined />}
          loading={loading}
          onClick={() => {
            void load(query);
            setReloads((n) => n + 1);
          }}
        >
          刷新
        </Button>
      </Space>
      {page?.partial && <Alert style={{ marginBottom: 8 }} type="warning" showIcon message="搜索超时，仅显示已找到的结果" />}
      <div data-testid="log-pane">
        <CodeEditor language="plaintext" readOnly value={text || (loading ? '加载中…' : '暂无日志')} height="calc(100vh - 330px)" />
      </div>
      <Space style={{ marginTop: 12, width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text type="secondary">
          最新的在前{page?.more ? '；还有更早的记录' : ''}
          {page?.instance ? `；实例 ${page.instance}` : ''}
        </Typography.Text>
        <Pagination
          size="small"
          current={query.pageNum}
          pageSize={query.pageSize}
          total={shownTotal.total}
          showTotal={() => <span data-testid="log-total">{shownTotal.text}</span>}
          pageSizeOptions={[10, 50, 100]}
          showSizeChanger
          onChange={(pageNum, pageSize) => setQuery((q) => ({ ...q, pageNum: pageSize === q.pageSize ? pageNum : 1, pageSize }))}
        />
      </Space>
    </Card>
  );
}
