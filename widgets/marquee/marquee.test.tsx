import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['marquee']), 60_000);

describe('marquee', () => {
  it('moves a doubled line (the copy hidden from assistive technology) when widgets may move', () => {
    const { container } = renderKind('marquee');
    const el = container.querySelector('[data-widget="marquee"]')!;
    expect(el.textContent).toContain('系统例行维护');
    expect(el.querySelectorAll('[aria-hidden="true"]')).toHaveLength(1);
  });

  it('stays one still line where the host holds widgets still', () => {
    const { container } = renderKind('marquee', undefined, { motion: false });
    const el = container.querySelector('[data-widget="marquee"]')!;
    expect(el.querySelectorAll('[aria-hidden="true"]')).toHaveLength(0);
    expect(el.textContent!.match(/系统例行维护/g)).toHaveLength(1);
  });
});
