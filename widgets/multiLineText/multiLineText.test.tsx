import { render } from '@testing-library/react';
import { createWidget, preloadWidgetKinds } from '../registry';
import type { DatasourceProps } from '../types';
import { WidgetView } from '../WidgetView';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['multiLineText']), 60_000);

function renderKind(name: string, ds?: Partial<DatasourceProps>, view?: Record<string, unknown>) {
  const w = createWidget(name, { pageId: 'p' });
  return render(<WidgetView widgetName={name} viewProps={{ ...w.widgetProps.viewProps, ...view }} datasourceProps={{ ...w.widgetProps.datasourceProps, ...ds }} />);
}

describe('multiLineText', () => {
  it('wraps its text keeping line breaks, or takes the mapped text', () => {
    const { container } = renderKind('multiLineText', undefined, { text: '第一行\n第二行' });
    const el = container.querySelector('[data-widget="multiLineText"]') as HTMLElement;
    expect(el.textContent).toBe('第一行\n第二行');
    expect(el.style.whiteSpace).toBe('pre-wrap');
    expect(el.style.textIndent).toBe('2em');
    const mapped = renderKind('multiLineText', { dataMapping: [{ id: '1', prop: 'text', label: '文本', field: 'c' }], dataConfig: { data: [{ c: '来自数据' }] } });
    expect(mapped.container.querySelector('[data-widget="multiLineText"]')).toHaveTextContent('来自数据');
  });
});
