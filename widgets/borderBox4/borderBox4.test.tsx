import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['borderBox4']), 60_000);

describe('borderBox4', () => {
  it('glows and marks four corners; breathes only where widgets move', () => {
    const { container } = renderKind('borderBox4');
    const box = container.querySelector('[data-widget="borderBox4"]') as HTMLElement;
    expect(box.style.boxShadow).toContain('12px');
    expect(box.querySelectorAll('path')).toHaveLength(4);
    expect(box.querySelector('animate')).not.toBeNull();
    expect(renderKind('borderBox4', {}, { motion: false }).container.querySelector('animate')).toBeNull();
    expect(renderKind('borderBox4', { pulse: false }).container.querySelector('animate')).toBeNull();
  });
});
