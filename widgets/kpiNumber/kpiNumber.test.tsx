import { waitFor } from '@testing-library/react';
import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['kpiNumber']), 60_000);

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
    const { container } = renderKind('kpiNumber', { prefix: '¥', unit: '', decimals: 2, separator: false }, { ds: { dataConfig: { data: [{ value: 35620.456 }] } } });
    expect(container.querySelector('[data-widget="kpiNumber"]')!.getAttribute('aria-label')).toBe('¥35620.46');
  });
});
