import { fireEvent, render, screen, within } from '@testing-library/react';
import { createWidget, preloadWidgetKinds } from '../registry';
import { WidgetView } from '../WidgetView';

// the kind's code loads on first use (widgets/kindCode.ts): loaded before the tests render it
beforeAll(() => preloadWidgetKinds(['pagedTable']), 60_000);

function renderTable(ds?: Record<string, unknown>, view?: Record<string, unknown>) {
  const w = createWidget('pagedTable', { pageId: 'p' });
  const viewProps = { ...w.widgetProps.viewProps, ...view };
  const datasourceProps = { ...w.widgetProps.datasourceProps, ...ds };
  const r = render(<WidgetView widgetName="pagedTable" viewProps={viewProps} datasourceProps={datasourceProps} />);
  const rerender = (next: Record<string, unknown>) =>
    r.rerender(<WidgetView widgetName="pagedTable" viewProps={viewProps} datasourceProps={{ ...datasourceProps, ...next }} />);
  return { ...r, rerender };
}

const firstCells = () => screen.getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell')[1].textContent);

describe('pagedTable', () => {
  it('shows the sample columns and the first page of five, with the pager', () => {
    renderTable();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['序号', '门店', '区域', '销售额（万元）', '同比']);
    expect(screen.getAllByRole('row')).toHaveLength(6);
    expect(firstCells()).toEqual(['国贸店', '南京西路店', '天河城店', '春熙路店', '西湖银泰店']);
    const pager = screen.getByRole('navigation', { name: '分页' });
    expect(pager).toHaveTextContent('共 12 条');
    expect(pager).toHaveTextContent('1 / 3');
    expect(screen.getByRole('button', { name: '上一页' })).toBeDisabled();
  });

  it('pages forward and back; the last page holds the rest, numbered on', () => {
    renderTable();
    fireEvent.click(screen.getByRole('button', { name: '下一页' }));
    fireEvent.click(screen.getByRole('button', { name: '下一页' }));
    expect(screen.getByRole('navigation')).toHaveTextContent('3 / 3');
    expect(screen.getByRole('button', { name: '下一页' })).toBeDisabled();
    expect(firstCells()).toEqual(['东门店', '万达广场店']);
    expect(within(screen.getAllByRole('row')[1]).getAllByRole('cell')[0]).toHaveTextContent('11');
    fireEvent.click(screen.getByRole('button', { name: '上一页' }));
    expect(screen.getByRole('navigation')).toHaveTextContent('2 / 3');
    expect(firstCells()[0]).toBe('解放碑店');
  });

  it('takes its columns and rows from the mapping, and stays on the last page when new data is shorter', () => {
    const mapping = [
      { id: 'a', prop: 'n', label: '站点', field: 'station' },
      { id: 'b', prop: 'c', label: '客流', field: 'count' },
    ];
    const data = Array.from({ length: 7 }, (_, i) => ({ station: `站${i + 1}`, count: i * 100 }));
    const { rerender } = renderTable({ dataMapping: mapping, dataConfig: { data } }, { pageSize: 3, showIndex: false });
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['站点', '客流']);
    fireEvent.click(screen.getByRole('button', { name: '下一页' }));
    fireEvent.click(screen.getByRole('button', { name: '下一页' }));
    expect(screen.getAllByRole('cell').map((c) => c.textContent)).toEqual(['站7', '600']);
    rerender({ dataMapping: mapping, dataConfig: { data: data.slice(0, 4) } });
    expect(screen.getByRole('navigation')).toHaveTextContent('2 / 2');
    expect(screen.getAllByRole('cell').map((c) => c.textContent)).toEqual(['站4', '300']);
  });

  it('says so when there is no data, one empty page', () => {
    renderTable({ dataConfig: { data: [] } });
    expect(screen.getByText('暂无数据')).toBeInTheDocument();
    expect(screen.getByRole('navigation')).toHaveTextContent('共 0 条');
    expect(screen.getByRole('navigation')).toHaveTextContent('1 / 1');
  });
});
