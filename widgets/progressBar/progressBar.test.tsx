import { screen } from '@testing-library/react';
import { render } from '@testing-library/react';
import { createWidget, preloadWidgetKinds } from '../registry';
import type { DatasourceProps } from '../types';
import { WidgetView } from '../WidgetView';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['progressBar']), 60_000);

function renderKind(name: string, ds?: Partial<DatasourceProps>, view?: Record<string, unknown>) {
  const w = createWidget(name, { pageId: 'p' });
  return render(<WidgetView widgetName={name} viewProps={{ ...w.widgetProps.viewProps, ...view }} datasourceProps={{ ...w.widgetProps.datasourceProps, ...ds }} />);
}

describe('progressBar', () => {
  it('fills the share of max and prints it', () => {
    renderKind('progressBar');
    const bar = screen.getByRole('progressbar');
    expect(bar).toHaveAttribute('aria-valuenow', '72.6');
    expect((bar.firstChild as HTMLElement).style.width).toBe('72.6%');
    expect(screen.getByText('72.6%')).toBeInTheDocument();
  });

  it('clamps a value above max to 100% and a non-number to 0%', () => {
    const { unmount } = renderKind('progressBar', { dataConfig: { data: [{ value: 230 }] } }, { max: 200 });
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    unmount();
    renderKind('progressBar', { dataConfig: { data: [{ value: 'abc' }] } });
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
  });
});
