import { screen } from '@testing-library/react';
import { render } from '@testing-library/react';
import { createWidget, preloadWidgetKinds } from '../registry';
import type { DatasourceProps } from '../types';
import { WidgetView } from '../WidgetView';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['progressRing']), 60_000);

function renderKind(name: string, ds?: Partial<DatasourceProps>, view?: Record<string, unknown>) {
  const w = createWidget(name, { pageId: 'p' });
  return render(<WidgetView widgetName={name} viewProps={{ ...w.widgetProps.viewProps, ...view }} datasourceProps={{ ...w.widgetProps.datasourceProps, ...ds }} />);
}

describe('progressRing', () => {
  it('draws an SVG arc for the share of max with the percentage in the centre', () => {
    const { container } = renderKind('progressRing');
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '68.3');
    expect(screen.getByText('68.3%')).toBeInTheDocument();
    const arcs = container.querySelectorAll('circle');
    expect(arcs).toHaveLength(2);
    const [filled, whole] = arcs[1].getAttribute('stroke-dasharray')!.split(' ').map(Number);
    expect(filled / whole).toBeCloseTo(0.683, 3);
  });
});
