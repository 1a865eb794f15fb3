// Large pages (issue 24 §5): a page of 500 rows is a virtual list, an estimated total is said as one, and the
// server's keyset hint goes back with the next page's call.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { fakeServices, renderPage, rows } from './test-utils';
import { columnWidth } from './columns';
import { fillWidth } from './VirtualBody';
import type { PageDeclaration } from './types';

const COLS = 30;
const page: PageDeclaration = {
  id: 'big',
  title: '大表',
  pageSize: 500,
  pageSizes: [50, 100, 200, 500],
  selectable: true,
  api: { search: 'POST /big/search', save: 'POST /big/save', delete: 'GET /big/delete' },
  columns: [
    { title: '序号', type: 'index' },
    { title: '名称', field: 'name', sortable: true },
    { title: '类型', field: 'dbType', dict: 'DB_TYPE' },
    { title: '有效', field: 'status', format: 'yesno' },
    { title: '更新时间', field: 'updateTime', format: 'datetime' },
    ...Array.from({ length: COLS - 5 }, (_, i) => ({ title: `字段${i}`, field: `f${i}`, width: 100 })),
    { title: '操作', type: 'actions' },
  ],
  rowActions: [{ action: 'edit', label: '修改' }, { action: 'delete', label: '删除' }],
};
const bigRows = (from: number, n: number) =>
  rows(n, (i) => ({ id: from + i, name: `名称${from + i}`, dbType: 'mysql', status: 1, updateTime: 1_700_000_000_000, ...Object.fromEntries(Array.from({ length: COLS - 5 }, (_, k) => [`f${k}`, `v${from + i}-${k}`])) }));

const bodyRows = (root: ParentNode) => root.querySelectorAll('.ant-table-tbody-virtual .ant-table-row, tbody .ant-table-row');

describe('a page of 500 rows', () => {
  it('is a virtual list: far fewer row elements than rows, the right cells in them', async () => {
    const { services, calls } = fakeServices(() => ({ records: bigRows(1, 500), total: 5000 }));
    const { container } = renderPage(page, services);
    await screen.findByText('名称1');
    expect(calls[0].body).toMatchObject({ pageNum: 1, pageSize: 500 });
    expect(container.querySelector('.ant-table-tbody-virtual')).not.toBeNull();
    const drawn = bodyRows(container);
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.length).toBeLessThan(100);
    // the first row's cells: index, name, dictionary label, yes/no, a plain field, and its actions
    const first = drawn[0] as HTMLElement;
    expect(within(first).getByText('1')).toBeInTheDocument();
    expect(within(first).getByText('名称1')).toBeInTheDocument();
    expect(within(first).getByText('MySQL')).toBeInTheDocument();
    expect(within(first).getByText('是')).toBeInTheDocument();
    expect(within(first).getByText('v1-0')).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: /修\s?改/ })).toBeInTheDocument();
    expect(screen.queryByText('名称500')).toBeNull();
    expect(screen.getByText('共 5000 条')).toBeInTheDocument();
  });

  it('keeps row selection, the fixed actions column and sorting', async () => {
    const { services, calls } = fakeServices(() => ({ records: bigRows(1, 500), total: 500 }));
    const { container } = renderPage(page, services);
    await screen.findByText('名称1');
    const boxes = () => bodyRows(container)[0].querySelector('input[type="checkbox"]') as HTMLInputElement;
    await act(async () => fireEvent.click(boxes()));
    await waitFor(() => expect(boxes().checked).toBe(true));
    expect(bodyRows(container)[0].querySelector('.ant-table-cell-fix-right')).not.toBeNull();
    const header = screen.getAllByText('名称', { selector: '.ant-table-column-title' })[0];
    fireEvent.click(header);
    await waitFor(() => expect(calls[calls.length - 1].body).toMatchObject({ orderByColumn: 'name', isAsc: 'ascending', pageNum: 1, pageSize: 500 }));
  });

  it('gives every column a width: declared, else by format or kind, never narrower than the title', () => {
    expect(columnWidth({ title: '字段', field: 'a', width: 77 }, [])).toBe(77);
    expect(columnWidth({ title: '更新时间', field: 'a', format: 'datetime' }, [])).toBe(170);
    expect(columnWidth({ title: '序号', type: 'index' }, [])).toBe(62);
    expect(columnWidth({ title: '操作', type: 'actions' }, [{ action: 'edit', label: '修改' }, { action: 'delete', label: '删除' }])).toBe(2 * (28 + 16) + 24);
    expect(columnWidth({ title: '一个很长很长很长很长的列标题', field: 'a' }, [])).toBe(14 * 14 + 34);
  });

  it('widens the columns in proportion to fill the box, to the pixel, and never narrows them', () => {
    const cols = [{ key: 'a', width: 100 }, { key: 'b', width: 200 }, { key: 'c', width: 101 }];
    const filled = fillWidth(cols, 48, 1000);
    expect(filled.reduce((w, c) => w + c.width, 48)).toBe(1000);
    expect(filled.map((c) => c.key)).toEqual(['a', 'b', 'c']);
    expect(filled[1].width).toBeGreaterThan(filled[0].width * 1.9);
    // wider than the box: as declared (the box scrolls sideways)
    expect(fillWidth(cols, 48, 300)).toBe(cols);
  });

  it('stays a plain table at 100 rows and below', async () => {
    const { services } = fakeServices(() => ({ records: bigRows(1, 100), total: 100 }));
    const { container } = renderPage({ ...page, pageSize: 100 }, services);
    await screen.findByText('名称100');
    expect(container.querySelector('.ant-table-tbody-virtual')).toBeNull();
    expect(bodyRows(container).length).toBe(100);
  });
});

describe('an estimated total', () => {
  it('is labelled 约 … 条（估算） and the pager still pages', async () => {
    const { services, calls } = fakeServices((r) => {
      const { pageNum } = r.body as { pageNum: number };
      return { records: bigRows((pageNum - 1) * 10 + 1, 10), total: 1_000_000, totalEstimated: true };
    });
    renderPage({ ...page, pageSize: 10 }, services);
    await screen.findByText('名称1');
    expect(screen.getByTestId('total-estimated')).toHaveTextContent('约 1,000,000 条（估算）');
    expect(screen.queryByText(/^共 /)).toBeNull();
    fireEvent.click(screen.getByTitle('下一页'));
    await screen.findByText('名称11');
    expect(calls[calls.length - 1].body).toMatchObject({ pageNum: 2, pageSize: 10 });
    expect(calls[calls.length - 1].body).not.toHaveProperty('after');
  });

  it('sends the keyset hint back with the next page only', async () => {
    const { services, calls } = fakeServices((r) => {
      const { pageNum } = r.body as { pageNum: number };
      return { records: bigRows((pageNum - 1) * 10 + 1, 10), total: 1_000_000, totalEstimated: true, next: `k${pageNum * 10}` };
    });
    renderPage({ ...page, pageSize: 10 }, services);
    await screen.findByText('名称1');
    fireEvent.click(screen.getByTitle('下一页'));
    await screen.findByText('名称11');
    expect(calls[calls.length - 1].body).toMatchObject({ pageNum: 2, after: 'k10' });
    // a jump is not one page on: no hint
    fireEvent.click(screen.getByTitle('5'));
    await screen.findByText('名称41');
    expect(calls[calls.length - 1].body).toMatchObject({ pageNum: 5 });
    expect(calls[calls.length - 1].body).not.toHaveProperty('after');
  });
});
