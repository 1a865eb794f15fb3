import { screen } from '@testing-library/react';
import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['trendNumber']), 60_000);

describe('trendNumber', () => {
  it('shows the value, unit and the rise against the previous value in the rise colour', () => {
    const { container } = renderKind('trendNumber');
    expect(container).toHaveTextContent('8,642单');
    const trend = container.querySelector('[data-trend]') as HTMLElement;
    expect(trend.dataset.trend).toBe('up');
    expect(trend).toHaveTextContent('▲ 9.2%');
    expect(trend.style.color).toBe('rgb(242, 99, 123)');
  });

  it('shows a fall as a difference in the fall colour', () => {
    const { container } = renderKind('trendNumber', { changeMode: 'absolute' }, { ds: { dataConfig: { data: [{ value: 12, previous: 19 }] } } });
    const trend = container.querySelector('[data-trend]') as HTMLElement;
    expect(trend.dataset.trend).toBe('down');
    expect(trend).toHaveTextContent('▼ 7');
    expect(trend.style.color).toBe('rgb(78, 203, 115)');
    expect(screen.getByLabelText('较上月下降 7')).toBeInTheDocument();
  });
});
