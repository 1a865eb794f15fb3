// What the kinds' tests share (test code only): a kind rendered as a screen shows it — its declared defaults, then
// the test's view props and data-source props — with widgets moving (the preview) or still (the designer).
import { render } from '@testing-library/react';
import { createWidget } from './registry';
import { WidgetMotionContext } from './timing/sharedInterval';
import type { DatasourceProps } from './types';
import { WidgetView } from './WidgetView';

export function renderKind(name: string, view?: Record<string, unknown>, opts: { ds?: Partial<DatasourceProps>; motion?: boolean } = {}) {
  const w = createWidget(name, { pageId: 'p' });
  return render(
    <WidgetMotionContext.Provider value={opts.motion ?? true}>
      <WidgetView widgetName={name} viewProps={{ ...w.widgetProps.viewProps, ...view }} datasourceProps={{ ...w.widgetProps.datasourceProps, ...opts.ds }} />
    </WidgetMotionContext.Provider>,
  );
}
