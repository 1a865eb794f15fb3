import { screen } from '@testing-library/react';
import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['rankingBoard']), 60_000);

describe('rankingBoard', () => {
  it('lists the top N rows by value, largest first, bars relative to the largest', () => {
    renderKind('rankingBoard');
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(5);
    expect(items[0]).toHaveTextContent('NO.1朝阳区345.1万人');
    expect(items[4]).toHaveTextContent('通州区');
  });

  it('sorts ascending when asked', () => {
    renderKind('rankingBoard', { sort: 'asc', topN: 2 });
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['NO.1石景山区56.3万人', 'NO.2东城区70.4万人']);
  });
});
