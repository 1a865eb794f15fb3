import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['decorationCorner']), 60_000);

describe('decorationCorner', () => {
  it('mirrors the bracket into the chosen corner with its stripes', () => {
    const tl = renderKind('decorationCorner');
    expect(tl.container.querySelector('g')!.getAttribute('transform')).toBe('translate(0 0) scale(1 1)');
    expect(tl.container.querySelectorAll('path')).toHaveLength(2 + 3);
    const br = renderKind('decorationCorner', { corner: 'bottomRight', stripes: 0 });
    expect(br.container.querySelector('g')!.getAttribute('transform')).toBe('translate(90 90) scale(-1 -1)');
    expect(br.container.querySelectorAll('path')).toHaveLength(2);
  });
});
