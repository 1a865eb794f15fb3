import { screen } from '@testing-library/react';
import { render } from '@testing-library/react';
import { createWidget, preloadWidgetKinds } from '../registry';
import type { DatasourceProps } from '../types';
import { WidgetView } from '../WidgetView';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['rankingBoard']), 60_000);

function renderKind(name: string, ds?: Partial<DatasourceProps>, view?: Record<string, unknown>) {
  const w = createWidget(name, { pageId: 'p' });
  return render(<WidgetView widgetName={name} viewProps={{ ...w.widgetProps.viewProps, ...view }} datasourceProps={{ ...w.widgetProps.datasourceProps, ...ds }} />);
}

describe('rankingBoard', () => {
  it('lists the top N rows by value, largest first, bars relative to the largest', () => {
    renderKind('rankingBoard');
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(5);
    expect(items[0]).toHaveTextContent('NO.1朝阳区345.1万人');
    expect(items[4]).toHaveTextContent('通州区');
  });

  it('sorts ascending when asked', () => {
    renderKind('rankingBoard', undefined, { sort: 'asc', topN: 2 });
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['NO.1石景山区56.3万人', 'NO.2东城区70.4万人']);
  });
});
