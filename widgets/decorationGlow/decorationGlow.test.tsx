import { render } from '@testing-library/react';
import { createWidget, preloadWidgetKinds } from '../registry';
import { WidgetMotionContext } from '../timing/sharedInterval';
import { WidgetView } from '../WidgetView';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['decorationGlow']), 60_000);

function renderKind(name: string, view?: Record<string, unknown>, motion = true) {
  const w = createWidget(name, { pageId: 'p' });
  return render(
    <WidgetMotionContext.Provider value={motion}>
      <WidgetView widgetName={name} viewProps={{ ...w.widgetProps.viewProps, ...view }} datasourceProps={w.widgetProps.datasourceProps} />
    </WidgetMotionContext.Provider>,
  );
}

describe('decorationGlow', () => {
  it('draws a halo or a beam, breathing only where widgets move', () => {
    const halo = renderKind('decorationGlow');
    expect(halo.container.querySelector('ellipse')).not.toBeNull();
    expect(halo.container.querySelector('animate')).not.toBeNull();
    const beam = renderKind('decorationGlow', { shape: 'beam' }, false);
    expect(beam.container.querySelector('ellipse')).toBeNull();
    expect(beam.container.querySelectorAll('rect')).toHaveLength(2);
    expect(beam.container.querySelector('animate')).toBeNull();
  });
});
