import { act, fireEvent, render, screen, within } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import { useState } from 'react';
import { createWidget, getWidgetKind, type DatasourceProps, type ViewProps } from '../../widgets';
import { canvasDefaults, canvasSchema, canvasUiSchema } from './canvasPanel';
import { RightPanel } from './RightPanel';
import { SchemaPanel } from './SchemaPanel';

const title = getWidgetKind('singleLineTitle')!;
const titleValue = () => createWidget('singleLineTitle', { pageId: 'p' }).widgetProps.viewProps;

function renderView(onChange = vi.fn(), schema: RJSFSchema = title.viewSchema) {
  render(<SchemaPanel schema={schema} uiSchema={title.uiSchema.viewProps} value={titleValue()} onChange={onChange} />);
  return onChange;
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, text: string) => fireEvent.change(input(label), { target: { value: text } });

describe('SchemaPanel on a widget view schema', () => {
  it('renders every property with its Chinese title and value', () => {
    renderView();
    for (const label of ['宽度', '高度', '上边距', '左边距', '标题文字', '字号', '字重', '文字颜色', '对齐方式']) expect(screen.getByText(label)).toBeInTheDocument();
    expect(input('宽度').value).toBe('200');
    expect(input('文字颜色').value).toBe('#A8E3FF');
  });

  it('applies a valid edit', () => {
    const onChange = renderView();
    type('字号', '24');
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ fontSize: 24, width: 200 }));
    type('宽度', '240');
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ fontSize: 24, width: 240 }));
  });

  it('keeps editing after the parent echoes each applied value', () => {
    function Host() {
      const [value, setValue] = useState(titleValue);
      return (
        <>
          <SchemaPanel schema={title.viewSchema} uiSchema={title.uiSchema.viewProps} value={value} onChange={setValue} />
          <output data-testid="applied">{JSON.stringify(value)}</output>
        </>
      );
    }
    render(<Host />);
    type('标题文字', '大屏');
    type('字号', '20');
    type('字号', '999');
    expect(JSON.parse(screen.getByTestId('applied').textContent!)).toMatchObject({ text: '大屏', fontSize: 20 });
    expect(input('字号').value).toBe('999');
    expect(input('标题文字').value).toBe('大屏');
  });

  it('shows the schema message and does not apply an invalid value', async () => {
    const onChange = renderView();
    type('字号', '500');
    expect(await screen.findByText('字号不能大于 200')).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();
    type('宽度', '5');
    expect(await screen.findByText('宽度不能小于 10')).toBeInTheDocument();
    type('文字颜色', '#'.repeat(31));
    expect(await screen.findByText('文字颜色最多 30 个字符')).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();
    // The invalid drafts stay visible until corrected.
    expect(input('字号').value).toBe('500');
    expect(input('宽度').value).toBe('5');
  });

  it('limits position and size inputs to 6 characters', () => {
    renderView();
    for (const label of ['宽度', '高度', '上边距', '左边距']) expect(input(label).getAttribute('maxlength')).toBe('6');
  });

  it('offers the dictionary labels for textAlign', () => {
    renderView();
    const select = screen.getByText('居中').closest('.ant-select')!;
    fireEvent.mouseDown(select.querySelector('.ant-select-selector')!);
    expect(screen.getByText('左对齐')).toBeInTheDocument();
    expect(screen.getByText('右对齐')).toBeInTheDocument();
  });

  it('shows a property added to the schema at runtime, with no other change', () => {
    const schema = structuredClone(title.viewSchema);
    schema.properties!.letterSpacing = { type: 'integer', title: '字间距', minimum: 0, maximum: 50, default: 0 };
    const onChange = renderView(vi.fn(), schema);
    expect(screen.getByText('字间距')).toBeInTheDocument();
    type('字间距', '60');
    expect(screen.getByText('字间距不能大于 50')).toBeInTheDocument();
    type('字间距', '4');
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ letterSpacing: 4 }));
  });

  it('resets its draft when the value changes from outside', () => {
    const onChange = vi.fn();
    const { rerender } = render(<SchemaPanel schema={title.viewSchema} value={titleValue()} onChange={onChange} />);
    type('字号', '999');
    rerender(<SchemaPanel schema={title.viewSchema} value={{ ...titleValue(), fontSize: 30 }} onChange={onChange} />);
    expect(input('字号').value).toBe('30');
  });
});

describe('SchemaPanel on a datasource schema', () => {
  const carousel = getWidgetKind('carousel')!;
  const ds = () => structuredClone(carousel.defaults.datasourceProps);
  const renderDs = (value: DatasourceProps = ds(), onChange = vi.fn()) => {
    render(<SchemaPanel schema={carousel.datasourceSchema} uiSchema={carousel.uiSchema.datasourceProps} value={value} onChange={onChange} />);
    return onChange;
  };

  it('edits STATIC rows as JSON, rejecting broken JSON', () => {
    const onChange = renderDs();
    const editor = screen.getByLabelText('静态数据') as HTMLTextAreaElement;
    expect(JSON.parse(editor.value)).toHaveLength(4);
    fireEvent.change(editor, { target: { value: '[{"url": "/x.png", "link": ""' } });
    expect(screen.getByText('JSON 格式错误')).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.change(editor, { target: { value: '[{"url": "/x.png", "link": ""}]' } });
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ dataConfig: { data: [{ url: '/x.png', link: '' }] } }));
  });

  it('switches to the table view of the same rows', () => {
    const onChange = renderDs();
    fireEvent.click(screen.getByText('表格'));
    const cell = screen.getByLabelText('link 第 2 行') as HTMLInputElement;
    expect(cell.value).toBe('#/screen/2');
    fireEvent.change(cell, { target: { value: '#/screen/9' } });
    const last = onChange.mock.lastCall![0] as DatasourceProps;
    expect(last.dataConfig.data![1]).toEqual({ url: 'builtin:carousel/slide-2.svg', link: '#/screen/9' });
  });

  it('lists the mapping and flags a field the data lacks', () => {
    const value = ds();
    value.dataMapping[1].field = 'href';
    renderDs(value);
    expect(screen.getByText('图片地址')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('字段「href」在数据中不存在');
  });

  it('edits a mapping field', () => {
    const onChange = renderDs();
    const field = screen.getByRole('combobox', { name: '跳转链接 字段' });
    fireEvent.change(field, { target: { value: 'url' } });
    const last = onChange.mock.lastCall![0] as DatasourceProps;
    expect(last.dataMapping[1]).toEqual({ id: '2', prop: 'imgLink', label: '跳转链接', field: 'url', slot: 'dimension' });
  });

  it('keeps both edits when the parent echoes each applied value', () => {
    function Host() {
      const [value, setValue] = useState(ds);
      return (
        <>
          <SchemaPanel schema={carousel.datasourceSchema} uiSchema={carousel.uiSchema.datasourceProps} value={value} onChange={setValue} />
          <output data-testid="applied">{JSON.stringify(value)}</output>
        </>
      );
    }
    render(<Host />);
    fireEvent.change(screen.getByLabelText('静态数据'), { target: { value: '[{"pic": "/x.png", "link": ""}]' } });
    fireEvent.change(screen.getByRole('combobox', { name: '图片地址 字段' }), { target: { value: 'pic' } });
    const applied = JSON.parse(screen.getByTestId('applied').textContent!) as DatasourceProps;
    expect(applied.dataConfig.data).toEqual([{ pic: '/x.png', link: '' }]);
    expect(applied.dataMapping[0].field).toBe('pic');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the API form without inventing APIs when none are injected', () => {
    renderDs({ ...ds(), datasourceType: 'API', dataConfig: {} });
    expect(screen.getByText('接口列表尚未接入')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '查看结果' })).toBeDisabled();
  });

  it('uses injected APIs and fetchApiData', async () => {
    const listApis = vi.fn(async () => [{ apiName: 'district_stats', apiComment: '区县统计', reqParams: '{"year": 2024}' }]);
    const fetchApiData = vi.fn(async () => [{ url: '/r.png', link: '' }]);
    const onChange = vi.fn();
    render(
      <SchemaPanel
        schema={carousel.datasourceSchema}
        uiSchema={carousel.uiSchema.datasourceProps}
        value={{ ...ds(), datasourceType: 'API', dataConfig: { datasource: 'district_stats', datasourceLabel: '区县统计', reqParams: { year: 2024 } } }}
        onChange={onChange}
        services={{ listApis, fetchApiData }}
      />,
    );
    await act(async () => {});
    expect(listApis).toHaveBeenCalled();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: '查看结果' })));
    expect(fetchApiData).toHaveBeenCalledWith({ datasource: 'district_stats', reqParams: { year: 2024 } });
    expect((onChange.mock.lastCall![0] as DatasourceProps).dataConfig.data).toEqual([{ url: '/r.png', link: '' }]);
  });
});

describe('canvas properties and the right panel', () => {
  it('edits canvas properties with the same component', () => {
    const onChange = vi.fn();
    render(<SchemaPanel schema={canvasSchema} uiSchema={canvasUiSchema} value={canvasDefaults} onChange={onChange} />);
    expect(input('宽度').value).toBe('1920');
    expect(input('高度').getAttribute('maxlength')).toBe('6');
    type('刷新间隔（秒）', '30');
    expect(onChange).toHaveBeenLastCalledWith({ width: 1920, height: 1080, theme: 'techBlue', backgroundColor: '', backgroundImage: '', refreshSeconds: 30, variables: [] });
  });

  it('picks the background image from the image library, or takes a typed address', async () => {
    const onChange = vi.fn();
    const listImages = vi.fn(async (search: string) => [{ name: `背景${search}.png`, url: '/files/gemini/bg.png' }]);
    render(<SchemaPanel schema={canvasSchema} uiSchema={canvasUiSchema} value={canvasDefaults} onChange={onChange} services={{ listImages }} />);
    type('背景图片', 'https://example.com/a.png');
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ backgroundImage: 'https://example.com/a.png' }));
    fireEvent.click(screen.getByRole('button', { name: '图片库' }));
    fireEvent.click(await screen.findByTitle('背景.png'));
    expect(listImages).toHaveBeenCalledWith('');
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ backgroundImage: '/files/gemini/bg.png' }));
  });

  it('clears the canvas’s own background colour when another theme is chosen, and keeps it otherwise', () => {
    const onCanvas = vi.fn();
    const canvas = { ...canvasDefaults, backgroundColor: '#000000' };
    render(<RightPanel widget={null} canvas={canvas} onWidgetChange={vi.fn()} onCanvasChange={onCanvas} />);
    type('刷新间隔（秒）', '30');
    expect(onCanvas).toHaveBeenLastCalledWith(expect.objectContaining({ theme: 'techBlue', backgroundColor: '#000000', refreshSeconds: 30 }));
    fireEvent.mouseDown(within(screen.getByText('主题').closest('.ant-form-item')!).getByRole('combobox'));
    fireEvent.click(screen.getByTitle('明亮'));
    expect(onCanvas).toHaveBeenLastCalledWith(expect.objectContaining({ theme: 'bright', backgroundColor: '' }));
  });

  it('shows canvas props with no selection and the two tabs for a widget', () => {
    const noop = vi.fn();
    const { rerender } = render(<RightPanel widget={null} canvas={canvasDefaults} onWidgetChange={noop} onCanvasChange={noop} />);
    expect(screen.getByText('画布属性')).toBeInTheDocument();
    const w = createWidget('barChart', { pageId: 'p', id: 'w1' });
    rerender(<RightPanel widget={w} canvas={canvasDefaults} onWidgetChange={noop} onCanvasChange={noop} />);
    const tabs = screen.getAllByRole('tab').map((t) => t.textContent);
    expect(tabs).toEqual(['视图样式', '数据源']);
    type('柱宽', '20');
    expect(noop).toHaveBeenLastCalledWith('w1', { viewProps: expect.objectContaining({ barWidth: 20 }) as ViewProps });
    fireEvent.click(screen.getByRole('tab', { name: '数据源' }));
    expect(noop).toHaveBeenLastCalledWith('w1', { selectedTab: 'datasource' });
    // The selected tab lives on the widget (spec: widgetProps.selectedTab).
    rerender(<RightPanel widget={{ ...w, widgetProps: { ...w.widgetProps, selectedTab: 'datasource' } }} canvas={canvasDefaults} onWidgetChange={noop} onCanvasChange={noop} />);
    expect(within(document.body).getByText('数据源类型')).toBeInTheDocument();
  });

  it('shows a 交互 tab on screens for kinds that emit clicks, generated from its schema, the linkage offering the canvas’s variables', () => {
    const noop = vi.fn();
    const w = createWidget('barChart', { pageId: 'p', id: 'w1' });
    const canvas = { ...canvasDefaults, variables: [{ name: 'region', title: '地区', type: 'string' as const }] };
    const { rerender } = render(<RightPanel widget={w} canvas={canvas} onWidgetChange={noop} onCanvasChange={noop} interactions />);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['视图样式', '数据源', '交互']);
    fireEvent.click(screen.getByRole('tab', { name: '交互' }));
    expect(noop).toHaveBeenLastCalledWith('w1', { selectedTab: 'interaction' });
    rerender(<RightPanel widget={{ ...w, widgetProps: { ...w.widgetProps, selectedTab: 'interaction' } }} canvas={canvas} onWidgetChange={noop} onCanvasChange={noop} interactions />);
    for (const label of ['点击联动', '下钻层级', '点击跳转', '跳转到', '目标', '新标签页打开']) expect(screen.getAllByText(label).length).toBeGreaterThan(0);
    type('目标', 'https://report.example.com/');
    expect(noop).toHaveBeenLastCalledWith('w1', { interactionProps: expect.objectContaining({ jump: expect.objectContaining({ to: 'https://report.example.com/' }) }) });
    // a title takes no clicks; the form designer shows no 交互 tab
    rerender(<RightPanel widget={createWidget('singleLineTitle', { pageId: 'p', id: 'w2' })} canvas={canvas} onWidgetChange={noop} onCanvasChange={noop} interactions />);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['视图样式', '数据源']);
    rerender(<RightPanel widget={w} canvas={canvas} onWidgetChange={noop} onCanvasChange={noop} />);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['视图样式', '数据源']);
  });
});
