import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['multiLineText']), 60_000);

describe('multiLineText', () => {
  it('wraps its text keeping line breaks, or takes the mapped text', () => {
    const { container } = renderKind('multiLineText', { text: '第一行\n第二行' });
    const el = container.querySelector('[data-widget="multiLineText"]') as HTMLElement;
    expect(el.textContent).toBe('第一行\n第二行');
    expect(el.style.whiteSpace).toBe('pre-wrap');
    expect(el.style.textIndent).toBe('2em');
    const mapped = renderKind('multiLineText', undefined, { ds: { dataMapping: [{ id: '1', prop: 'text', label: '文本', field: 'c' }], dataConfig: { data: [{ c: '来自数据' }] } } });
    expect(mapped.container.querySelector('[data-widget="multiLineText"]')).toHaveTextContent('来自数据');
  });
});
