import { screen } from '@testing-library/react';
import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['progressBar']), 60_000);

describe('progressBar', () => {
  it('fills the share of max and prints it', () => {
    renderKind('progressBar');
    const bar = screen.getByRole('progressbar');
    expect(bar).toHaveAttribute('aria-valuenow', '72.6');
    expect((bar.firstChild as HTMLElement).style.width).toBe('72.6%');
    expect(screen.getByText('72.6%')).toBeInTheDocument();
  });

  it('clamps a value above max to 100% and a non-number to 0%', () => {
    const { unmount } = renderKind('progressBar', { max: 200 }, { ds: { dataConfig: { data: [{ value: 230 }] } } });
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    unmount();
    renderKind('progressBar', undefined, { ds: { dataConfig: { data: [{ value: 'abc' }] } } });
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
  });
});
