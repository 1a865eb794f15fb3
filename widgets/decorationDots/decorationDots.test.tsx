import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['decorationDots']), 60_000);

describe('decorationDots', () => {
  it('fills the box with dots, lighting some, twinkling only where widgets move', () => {
    const { container } = renderKind('decorationDots', { width: 100, height: 20, dotSize: 6, spacing: 10 });
    // (100 + 10) / 16 → 6 columns, (20 + 10) / 16 → 1 row
    expect(container.querySelectorAll('circle')).toHaveLength(6);
    expect(container.querySelectorAll('circle[data-lit]')).toHaveLength(2);
    expect(container.querySelectorAll('animate')).toHaveLength(2);
    expect(renderKind('decorationDots', {}, { motion: false }).container.querySelector('animate')).toBeNull();
  });
});
