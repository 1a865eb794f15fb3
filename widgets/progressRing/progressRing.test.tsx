import { screen } from '@testing-library/react';
import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['progressRing']), 60_000);

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
