import { WidgetMotionContext } from '../timing/sharedInterval';
import { render } from '@testing-library/react';
import { createWidget, preloadWidgetKinds } from '../registry';
import type { DatasourceProps } from '../types';
import { WidgetView } from '../WidgetView';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['marquee']), 60_000);

function renderKind(name: string, ds?: Partial<DatasourceProps>, view?: Record<string, unknown>) {
  const w = createWidget(name, { pageId: 'p' });
  return render(<WidgetView widgetName={name} viewProps={{ ...w.widgetProps.viewProps, ...view }} datasourceProps={{ ...w.widgetProps.datasourceProps, ...ds }} />);
}

describe('marquee', () => {
  it('moves a doubled line (the copy hidden from assistive technology) when widgets may move', () => {
    const { container } = renderKind('marquee');
    const el = container.querySelector('[data-widget="marquee"]')!;
    expect(el.textContent).toContain('系统例行维护');
    expect(el.querySelectorAll('[aria-hidden="true"]')).toHaveLength(1);
  });

  it('stays one still line where the host holds widgets still', () => {
    const w = createWidget('marquee', { pageId: 'p' });
    const { container } = render(
      <WidgetMotionContext.Provider value={false}>
        <WidgetView widgetName="marquee" viewProps={w.widgetProps.viewProps} datasourceProps={w.widgetProps.datasourceProps} />
      </WidgetMotionContext.Provider>,
    );
    const el = container.querySelector('[data-widget="marquee"]')!;
    expect(el.querySelectorAll('[aria-hidden="true"]')).toHaveLength(0);
    expect(el.textContent!.match(/系统例行维护/g)).toHaveLength(1);
  });
});
