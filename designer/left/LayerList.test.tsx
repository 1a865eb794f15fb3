// The layer list (图层) with a group: one entry, expandable to its members; a click selects the whole group,
// a member's click the member alone; double-click renames (Enter saves, Escape cancels), undoable.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { groupOf } from '../../common/groups';
import { createWidget } from '../../widgets';
import { createDesigner } from '../editor/store';
import { LayerList } from './LayerList';

function setup() {
  const d = createDesigner();
  const [a, b, c] = ['singleLineTitle', 'barChart', 'borderBox'].map((k) => createWidget(k, { pageId: '1' }));
  [a, b, c].forEach((w) => d.add(w));
  d.select([a.id, b.id]);
  d.group();
  d.select([]);
  render(<LayerList designer={d} />);
  return { d, a, b, c, user: userEvent.setup() };
}

const rows = () => within(screen.getByTestId('layer-list')).getAllByRole('listitem');

describe('layer list', () => {
  it('shows a group as one entry, expands it to its members, selects the group or a member', async () => {
    const { d, a, b, c, user } = setup();
    // top first: the border, then the group (its members hidden until expanded)
    expect(rows().map((li) => li.getAttribute('aria-label'))).toEqual([`图层 ${c.widgetTitle}`, '分组 分组1']);
    expect(screen.queryByText(a.widgetTitle)).toBeNull();

    await user.click(screen.getByText('分组1'));
    expect([...d.store.get().selected].sort()).toEqual([a.id, b.id].sort());

    await user.click(screen.getByRole('button', { name: '展开 分组1' }));
    const members = within(screen.getByRole('list', { name: '分组 分组1 的图层' })).getAllByRole('listitem');
    // top of the stack first
    expect(members.map((li) => li.getAttribute('data-layer-id'))).toEqual([b.id, a.id]);
    await user.click(within(members[1]).getByText(a.widgetTitle));
    expect(d.store.get().selected).toEqual([a.id]);

    // hiding the group hides every member, as one step
    await user.click(screen.getByRole('button', { name: '隐藏 分组1' }));
    expect(d.store.get().doc.widgets.filter((w) => w.widgetProps.hidden).map((w) => w.id)).toEqual([a.id, b.id]);
    await user.click(screen.getByRole('button', { name: '显示 分组1' }));
    expect(d.store.get().doc.widgets.some((w) => w.widgetProps.hidden)).toBe(false);

    await user.click(screen.getByRole('button', { name: '收起 分组1' }));
    expect(screen.queryByRole('list', { name: '分组 分组1 的图层' })).toBeNull();
  });

  it('renames a layer and a group by double-click: Enter saves, Escape cancels; undo restores', async () => {
    const { d, c, a, user } = setup();
    await user.dblClick(screen.getByText(c.widgetTitle));
    const input = screen.getByRole('textbox', { name: `图层名称 ${c.widgetTitle}` });
    await user.clear(input);
    await user.type(input, '外框{Enter}');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByText('外框')).toBeInTheDocument();
    expect(d.store.get().doc.widgets[2].widgetTitle).toBe('外框');

    await user.dblClick(screen.getByText('外框'));
    await user.type(screen.getByRole('textbox'), '不要{Escape}');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(d.store.get().doc.widgets[2].widgetTitle).toBe('外框');

    await user.dblClick(screen.getByText('分组1'));
    const g = screen.getByRole('textbox', { name: '图层名称 分组1' });
    await user.clear(g);
    await user.type(g, '顶部区域{Enter}');
    expect(screen.getByText('顶部区域')).toBeInTheDocument();
    expect(groupOf(d.store.get().doc.widgets[0])?.name).toBe('顶部区域');

    // a member renamed inside the expanded group
    await user.click(screen.getByRole('button', { name: '展开 顶部区域' }));
    await user.dblClick(screen.getByText(a.widgetTitle));
    const m = screen.getByRole('textbox');
    await user.clear(m);
    await user.type(m, '主标题{Enter}');
    expect(d.store.get().doc.widgets[0].widgetTitle).toBe('主标题');

    act(() => {
      d.undo();
      d.undo();
      d.undo();
    });
    expect(await screen.findByText(c.widgetTitle)).toBeInTheDocument();
    expect(screen.getByText('分组1')).toBeInTheDocument();
  });
});
