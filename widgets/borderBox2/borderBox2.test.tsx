import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['borderBox2']), 60_000);

describe('borderBox2', () => {
  it('draws the cut-corner frame at the box size, with or without its inner line', () => {
    const { container } = renderKind('borderBox2', { width: 400, height: 100, cut: 20 });
    const svg = container.querySelector('[data-widget="borderBox2"]')!;
    expect(svg.getAttribute('viewBox')).toBe('0 0 400 100');
    expect(svg.querySelector('path')!.getAttribute('d')).toMatch(/^M21,1 H379 L399,21/);
    expect(svg.querySelectorAll('path[stroke-dasharray]')).toHaveLength(1);
    const plain = renderKind('borderBox2', { innerLine: false });
    expect(plain.container.querySelectorAll('path[stroke-dasharray]')).toHaveLength(0);
  });
});
