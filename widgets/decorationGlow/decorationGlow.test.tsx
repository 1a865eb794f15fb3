import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['decorationGlow']), 60_000);

describe('decorationGlow', () => {
  it('draws a halo or a beam, breathing only where widgets move', () => {
    const halo = renderKind('decorationGlow');
    expect(halo.container.querySelector('ellipse')).not.toBeNull();
    expect(halo.container.querySelector('animate')).not.toBeNull();
    const beam = renderKind('decorationGlow', { shape: 'beam' }, { motion: false });
    expect(beam.container.querySelector('ellipse')).toBeNull();
    expect(beam.container.querySelectorAll('rect')).toHaveLength(2);
    expect(beam.container.querySelector('animate')).toBeNull();
  });
});
