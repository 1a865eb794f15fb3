import { createWidget } from '../../widgets';
import { exportDoc, importDoc } from './transfer';

const doc = () => ({ canvas: { width: 1280, height: 720, backgroundColor: '#000', refreshSeconds: 30, theme: 'fresh', backgroundImage: '/files/gemini/bg.png' }, widgets: [createWidget('singleLineTitle', { pageId: '1', top: 5, left: 6 }), createWidget('barChart', { pageId: '1' })] });

describe('export and import', () => {
  it('round-trips a canvas with its widgets, giving them new ids on the importing page', () => {
    const d = doc();
    const r = importDoc(exportDoc(d, 'screen', '销售'), '9');
    if (!('doc' in r)) throw new Error(r.faults.join());
    expect(r.doc.canvas).toEqual({ ...d.canvas, variables: [] });
    expect(r.doc.widgets.map((w) => w.widgetName)).toEqual(['singleLineTitle', 'barChart']);
    expect(r.doc.widgets[0].widgetProps.viewProps).toMatchObject({ top: 5, left: 6 });
    expect(r.doc.widgets.every((w) => w.pageId === '9' && !d.widgets.some((o) => o.id === w.id))).toBe(true);
  });

  it('lists what is wrong with a file instead of importing it', () => {
    expect(importDoc('{', '1')).toEqual({ faults: ['文件不是合法的 JSON'] });
    const file = JSON.parse(exportDoc(doc(), 'screen', 'x'));
    const faultsOf = (f: unknown) => {
      const r = importDoc(JSON.stringify(f), '1');
      return 'faults' in r ? r.faults.join('\n') : '';
    };
    expect(faultsOf({ ...file, format: 'other' })).toContain('/format');
    expect(faultsOf({ ...file, page: { ...file.page, width: 0 } })).toContain('/page/width');
    const badProp = structuredClone(file);
    badProp.widgets[0].widgetProps.viewProps.fontSize = 'huge';
    expect(faultsOf(badProp)).toContain('/widgets/0/widgetProps/viewProps/fontSize');
    const unknown = structuredClone(file);
    unknown.widgets[1].widgetName = 'rocket';
    expect(faultsOf(unknown)).toContain('/widgets/1 未知部件：rocket');
    expect(faultsOf({ ...file, widgets: [{ widgetName: '__proto__', widgetProps: { viewProps: {}, datasourceProps: {} } }] })).toContain('未知部件');
  });

  it('keeps a widget’s click interactions; refuses an undeclared variable, a javascript: address or a kind without clicks', () => {
    const d = doc();
    const canvas = { ...d.canvas, variables: [{ name: 'region', type: 'string' as const }] };
    const ip = { linkage: [{ field: 'name', variable: 'region' }], jump: { target: 'screen' as const, to: '3', newTab: false, params: [{ field: 'name', param: 'region' }] } };
    d.widgets[1] = { ...d.widgets[1], widgetProps: { ...d.widgets[1].widgetProps, interactionProps: ip } };
    const r = importDoc(exportDoc({ ...d, canvas }, 'screen', '销售'), '9');
    if (!('doc' in r)) throw new Error(r.faults.join());
    expect(r.doc.widgets[1].widgetProps.interactionProps).toEqual(ip);
    const faultsOf = (canvasOf: object, widgetIp: unknown, at = 1) => {
      const widgets = d.widgets.map((w, i) => (i === at ? { ...w, widgetProps: { ...w.widgetProps, interactionProps: widgetIp as never } } : w));
      const res = importDoc(exportDoc({ canvas: { ...d.canvas, ...canvasOf }, widgets }, 'screen', 'x'), '1');
      return 'faults' in res ? res.faults.join('\n') : '';
    };
    expect(faultsOf({}, ip)).toBe('/widgets/1/widgetProps/interactionProps 联动第 1 条的变量【region】未在画布的变量中声明');
    expect(faultsOf(canvas, { jump: { target: 'url', to: 'javascript:alert(1)' } })).toContain('跳转的网址只能是 http:// 或 https:// 开头的地址');
    expect(faultsOf(canvas, ip, 0)).toBe('/widgets/0/widgetProps/interactionProps 此部件不支持点击交互');
  });

  it('keeps layer groups and layer names through export and import; refuses a split group', () => {
    const d = doc();
    const group = { id: 'g-1', name: '顶部区域' };
    d.widgets = d.widgets.map((w, i) => ({ ...w, widgetTitle: i ? w.widgetTitle : '主标题', widgetProps: { ...w.widgetProps, group } }));
    const text = exportDoc(d, 'screen', '销售');
    const r = importDoc(text, '9');
    if (!('doc' in r)) throw new Error(r.faults.join());
    expect(r.doc.widgets.map((w) => [w.widgetTitle, w.widgetProps.group])).toEqual([
      ['主标题', group],
      [d.widgets[1].widgetTitle, group],
    ]);
    const file = JSON.parse(text);
    file.widgets.push({ ...file.widgets[0], widgetProps: { ...file.widgets[0].widgetProps, group: null } });
    file.widgets.push(file.widgets[0]);
    const split = importDoc(JSON.stringify(file), '9');
    expect('faults' in split && split.faults.join()).toContain('分组【顶部区域】的图层在叠放顺序中不相邻（第 4 个部件）');
    const bad = JSON.parse(text);
    bad.widgets[0].widgetProps.group = { id: 'a/b', name: '' };
    const r2 = importDoc(JSON.stringify(bad), '9');
    expect('faults' in r2 && r2.faults.join()).toContain('/widgets/0/widgetProps/group');
  });
});

describe('the shipped screen templates (schemas/templates)', () => {
  const files = import.meta.glob<{ default: unknown }>('../../schemas/templates/*.screen.json', { eager: true });

  it('are at least three, and each passes the import checks a file chosen in the designer passes', () => {
    expect(Object.keys(files).length).toBeGreaterThanOrEqual(3);
    for (const [file, mod] of Object.entries(files)) {
      const r = importDoc(JSON.stringify(mod.default), '1');
      expect('faults' in r ? r.faults : [], file).toEqual([]);
      if ('doc' in r) expect(r.doc.widgets.length, file).toBeGreaterThan(10);
    }
  });
});
