import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['decorationLine']), 60_000);

describe('decorationLine', () => {
  it('draws each style, with the running light only where widgets move', () => {
    const fade = renderKind('decorationLine');
    expect(fade.container.querySelector('[data-flow] animate')).not.toBeNull();
    expect(renderKind('decorationLine', {}, { motion: false }).container.querySelector('[data-flow]')).toBeNull();
    const ruler = renderKind('decorationLine', { lineStyle: 'dashed', width: 100 });
    expect(ruler.container.querySelectorAll('rect').length).toBeGreaterThan(10);
    const double = renderKind('decorationLine', { lineStyle: 'double', flow: false });
    expect(double.container.querySelectorAll('rect')).toHaveLength(5);
  });
});
