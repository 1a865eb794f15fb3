import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['borderBox3']), 60_000);

describe('borderBox3', () => {
  it('shows its title in a tab centred on the top edge', () => {
    const { container, getByText } = renderKind('borderBox3', { width: 400, titleWidth: 160 });
    const title = getByText('实时监测');
    expect(title.style.left).toBe('120px');
    expect(title.style.width).toBe('160px');
    expect(title.style.color).toBe('rgb(230, 244, 255)');
    expect(container.querySelector('[data-widget="borderBox3"] svg')).not.toBeNull();
  });
});
