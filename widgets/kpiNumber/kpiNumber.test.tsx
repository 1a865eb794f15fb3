import { waitFor } from '@testing-library/react';
import { render } from '@testing-library/react';
import { createWidget, preloadWidgetKinds } from '../registry';
import type { DatasourceProps } from '../types';
import { WidgetView } from '../WidgetView';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['kpiNumber']), 60_000);

function renderKind(name: string, ds?: Partial<DatasourceProps>, view?: Record<string, unknown>) {
  const w = createWidget(name, { pageId: 'p' });
  return render(<WidgetView widgetName={name} viewProps={{ ...w.widgetProps.viewProps, ...view }} datasourceProps={{ ...w.widgetProps.datasourceProps, ...ds }} />);
}

describe('kpiNumber', () => {
  it('shows the mapped value with separator, prefix and unit, and rolls each digit cell to its digit', async () => {
    const { container } = renderKind('kpiNumber');
    const root = container.querySelector('[data-widget="kpiNumber"]')!;
    expect(root.getAttribute('aria-label')).toBe('1,286,435 人次');
    // the last cell (5) ends 5 cells up its 0–9 strip
    await waitFor(() => {
      const strips = root.querySelectorAll<HTMLElement>('span[style*="translateY"]');
      expect(strips).toHaveLength(7);
      expect(strips[6].style.transform).toBe('translateY(-6em)');
    });
  });

  it('takes decimals, prefix and no separator', () => {
    const { container } = renderKind('kpiNumber', { dataConfig: { data: [{ value: 35620.456 }] } }, { prefix: '¥', unit: '', decimals: 2, separator: false });
    expect(container.querySelector('[data-widget="kpiNumber"]')!.getAttribute('aria-label')).toBe('¥35620.46');
  });
});
