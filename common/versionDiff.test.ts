// Changes between versions in words (issue 37 item 1), as the history drawer shows them.
import { describe, expect, it } from 'vitest';
import { describeChanges, layoutBoxes } from './versionDiff';

const page = (width: number, extra: object = {}) => ({
  id: 'p',
  title: '销售',
  columns: [
    { title: '城市', field: 'city', width },
    { title: '金额', field: 'amount' },
  ],
  dialog: { schema: { type: 'object', properties: { city: { type: 'string', title: '城市' } } } },
  ...extra,
});

const widget = (id: string, left: number, top: number, extra: object = {}) => ({ id, widgetName: 'barChart', widgetTitle: '柱状图', widgetProps: { viewProps: { left, top, width: 300, height: 200, title: '销售额', ...extra } } });

describe('changes between versions in words', () => {
  it('reads a page by its columns and fields', () => {
    expect(describeChanges('page', page(120), page(160)).map((c) => c.text)).toEqual(['列「城市」的宽度 120 → 160']);
    const b = page(120, { columns: [{ title: '金额', field: 'amount' }, { title: '城市', field: 'city', width: 120 }, { title: '区县', field: 'district' }] });
    expect(describeChanges('page', page(120), b).map((c) => c.text)).toEqual(['新增列「区县」', '列的顺序改变']);
    const c = page(120, { dialog: { schema: { type: 'object', properties: { city: { type: 'string', title: '所在城市' }, note: { type: 'string', title: '备注' } } } }, toolbar: [{ action: 'add', label: '添加' }] });
    expect(describeChanges('page', page(120), c).map((x) => x.text)).toEqual(['表单字段「城市」的标签 城市 → 所在城市', '新增表单字段「备注」', '工具栏按钮：（空） → [{"action":"add","label":"添加"}]']);
    expect(describeChanges('page', page(120), page(120))).toEqual([]);
  });

  it('reads a screen by its canvas and widgets', () => {
    const a = { canvas: { width: 1920, pageName: '大屏' }, widgets: [widget('w1', 0, 0), widget('w2', 10, 10, { title: '利润' })] };
    const b = { canvas: { width: 1280, pageName: '大屏' }, widgets: [widget('w1', 120, 80, { width: 400 }), widget('w3', 0, 0, { title: '新图' })] };
    expect(describeChanges('screen', a, b).map((c) => c.text)).toEqual(['画布宽度 1920 → 1280', '组件「销售额」移动到 (120, 80)', '组件「销售额」的大小 300×200 → 400×200', '新增组件「新图」', '删除组件「利润」']);
  });

  it('lays a snapshot out as boxes for its thumbnail', () => {
    const l = layoutBoxes({ canvas: { width: 1280, height: 720, backgroundColor: '#000' }, widgets: [widget('w1', 5, 6), { ...widget('w2', 0, 0), widgetProps: { hidden: true, viewProps: {} } }] });
    expect(l).toEqual({ width: 1280, height: 720, background: '#000', boxes: [{ id: 'w1', x: 5, y: 6, w: 300, h: 200, label: '销售额' }] });
  });

  it('names a menu entry’s and a dataset’s settings as their editors do', () => {
    expect(describeChanges('menu', { name: '旧', orderNum: 1 }, { name: '新', orderNum: 2 }).map((c) => c.text)).toEqual(['名称：旧 → 新', '显示顺序：1 → 2']);
    expect(describeChanges('dataset', { cacheTtl: 60, fields: [{ name: 'a' }] }, { cacheTtl: 5, fields: [{ name: 'b' }] }).map((c) => c.text)).toEqual(['缓存秒数：60 → 5', '字段[0].name：a → b']);
  });
});
