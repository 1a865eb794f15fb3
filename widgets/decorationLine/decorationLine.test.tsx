import { render } from '@testing-library/react';
import { createWidget, preloadWidgetKinds } from '../registry';
import { WidgetMotionContext } from '../timing/sharedInterval';
import { WidgetView } from '../WidgetView';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['decorationLine']), 60_000);

function renderKind(name: string, view?: Record<string, unknown>, motion = true) {
  const w = createWidget(name, { pageId: 'p' });
  return render(
    <WidgetMotionContext.Provider value={motion}>
      <WidgetView widgetName={name} viewProps={{ ...w.widgetProps.viewProps, ...view }} datasourceProps={w.widgetProps.datasourceProps} />
    </WidgetMotionContext.Provider>,
  );
}

describe('decorationLine', () => {
  it('draws each style, with the running light only where widgets move', () => {
    const fade = renderKind('decorationLine');
    expect(fade.container.querySelector('[data-flow] animate')).not.toBeNull();
    expect(renderKind('decorationLine', {}, false).container.querySelector('[data-flow]')).toBeNull();
    const ruler = renderKind('decorationLine', { lineStyle: 'dashed', width: 100 });
    expect(ruler.container.querySelectorAll('rect').length).toBeGreaterThan(10);
    const double = renderKind('decorationLine', { lineStyle: 'double', flow: false });
    expect(double.container.querySelectorAll('rect')).toHaveLength(5);
  });
});
