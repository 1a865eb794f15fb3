// The designer's arranging edits (issue 22 §3) through the store: align, distribute, group / ungroup, rename,
// each one undoable step; groups kept whole by delete, layer moves, reorder, copy and paste.
import { groupFault, groupOf } from '../../common/groups';
import { createWidget, type WidgetEntity } from '../../widgets';
import { createDesigner } from './store';

const box = (left: number, top: number, width: number, height: number): WidgetEntity => {
  const w = createWidget('singleLineTitle', { pageId: '1' });
  return { ...w, widgetProps: { ...w.widgetProps, viewProps: { ...w.widgetProps.viewProps, left, top, width, height } } };
};
const layout = (d: ReturnType<typeof createDesigner>) => d.store.get().doc.widgets.map((w) => [w.widgetProps.viewProps.left, w.widgetProps.viewProps.top, w.widgetProps.viewProps.width, w.widgetProps.viewProps.height]);
const ids = (d: ReturnType<typeof createDesigner>) => d.store.get().doc.widgets.map((w) => w.id);

function three() {
  const d = createDesigner();
  const ws = [box(10, 100, 100, 50), box(300, 20, 50, 80), box(150, 300, 200, 40)];
  ws.forEach((w) => d.add(w));
  d.select(ws.map((w) => w.id));
  return { d, ws };
}

describe('align and distribute', () => {
  it('aligns every side and centre to the selection box, each one undoable step', () => {
    const expected = {
      left: [[10, 100], [10, 20], [10, 300]],
      right: [[250, 100], [300, 20], [150, 300]],
      center: [[130, 100], [155, 20], [80, 300]],
      top: [[10, 20], [300, 20], [150, 20]],
      bottom: [[10, 290], [300, 260], [150, 300]],
      middle: [[10, 155], [300, 140], [150, 160]],
    } as const;
    for (const [mode, want] of Object.entries(expected)) {
      const { d } = three();
      const before = layout(d);
      d.align(mode as keyof typeof expected);
      expect(layout(d).map(([l, t]) => [l, t]), mode).toEqual(want);
      expect(d.store.get().past.at(-1)?.label).toMatch(/对齐/);
      d.undo();
      expect(layout(d)).toEqual(before);
      d.redo();
      expect(layout(d).map(([l, t]) => [l, t])).toEqual(want);
    }
  });

  it('needs two widgets to align and three to distribute; locked ones stay', () => {
    const { d, ws } = three();
    d.select([ws[0].id]);
    d.align('left');
    d.select([ws[0].id, ws[1].id]);
    d.distribute('horizontal');
    expect(d.store.get().past).toHaveLength(3); // the three adds only
    d.setFlag(ws[1].id, 'locked', true);
    d.select(ws.map((w) => w.id));
    d.align('left');
    expect(layout(d).map(([l]) => l)).toEqual([10, 300, 10]);
  });

  it('distributes horizontally and vertically with equal gaps, the outer two staying', () => {
    const { d } = three();
    // by left: 10..110, 150..350, 300..350 → span 10..350, sizes 100+200+50 → gap (340-350)/2 = -5
    d.distribute('horizontal');
    expect(layout(d).map(([l]) => l)).toEqual([10, 300, 105]);
    d.undo();
    // by top: 20..100 (b), 100..150 (a), 300..340 (c) → span 20..340, sizes 80+50+40 → gap 75
    d.distribute('vertical');
    expect(layout(d).map(([, t]) => t)).toEqual([175, 20, 300]);
    d.undo();
    expect(layout(d).map(([, t]) => t)).toEqual([100, 20, 300]);
  });
});

describe('groups', () => {
  it('groups the selection (gathered in the stacking order under the topmost member), ungroups, undo and redo', () => {
    const d = createDesigner();
    const [a, b, c, e] = [box(0, 0, 10, 10), box(20, 0, 10, 10), box(40, 0, 10, 10), box(60, 0, 10, 10)];
    [a, b, c, e].forEach((w) => d.add(w));
    d.select([a.id, c.id]);
    const g = d.group()!;
    expect(g.name).toBe('分组1');
    expect(ids(d)).toEqual([b.id, a.id, c.id, e.id]);
    expect(d.store.get().doc.widgets.map((w) => groupOf(w)?.name ?? null)).toEqual([null, '分组1', '分组1', null]);
    expect(groupFault(d.store.get().doc.widgets)).toBeNull();
    expect(d.store.get().past.at(-1)?.label).toBe('组合');
    d.undo();
    expect(ids(d)).toEqual([a.id, b.id, c.id, e.id]);
    expect(d.store.get().doc.widgets.some((w) => w.widgetProps.group)).toBe(false);
    d.redo();
    expect(ids(d)).toEqual([b.id, a.id, c.id, e.id]);

    // a second group gets the next free name; a selection of one group is one unit: nothing to group
    d.select([b.id, e.id]);
    expect(d.group()!.name).toBe('分组2');
    d.select([b.id, e.id]);
    expect(d.group()).toBeNull();

    d.select([a.id]);
    d.ungroup();
    expect(groupOf(d.store.get().doc.widgets.find((w) => w.id === a.id)!)).toBeNull();
    expect(groupOf(d.store.get().doc.widgets.find((w) => w.id === c.id)!)).toBeNull();
    d.undo();
    expect(groupOf(d.store.get().doc.widgets.find((w) => w.id === c.id)!)?.name).toBe('分组1');
  });

  it('a click on a member selects the group; the group aligns, locks and hides as one', () => {
    const d = createDesigner();
    const [a, b, c] = [box(0, 0, 10, 10), box(20, 30, 10, 10), box(100, 100, 10, 10)];
    [a, b, c].forEach((w) => d.add(w));
    d.select([a.id, b.id]);
    d.group();
    d.selectWithGroups([b.id]);
    expect(d.store.get().selected.sort()).toEqual([a.id, b.id].sort());
    d.selectWithGroups([a.id, c.id]);
    d.align('right');
    // the group keeps its members' offsets: its box (0..30) moves to end at 110
    expect(layout(d).map(([l, t]) => [l, t])).toEqual([[80, 0], [100, 30], [100, 100]]);
    d.setFlags([a.id, b.id], 'hidden', true);
    expect(d.store.get().doc.widgets.map((w) => Boolean(w.widgetProps.hidden))).toEqual([true, true, false]);
    d.undo();
    expect(d.store.get().doc.widgets.some((w) => w.widgetProps.hidden)).toBe(false);
  });

  it('keeps groups whole: delete leaves no lone member, layer moves and reorder keep members together, copies get their own group', () => {
    const d = createDesigner();
    const [a, b, c, e] = [box(0, 0, 10, 10), box(20, 0, 10, 10), box(40, 0, 10, 10), box(60, 0, 10, 10)];
    [a, b, c, e].forEach((w) => d.add(w));
    d.select([b.id, c.id]);
    const g = d.group()!;
    // down one layer: the block passes a
    d.moveLayer(c.id, 'down');
    expect(ids(d)).toEqual([b.id, c.id, a.id, e.id]);
    d.moveLayer(a.id, 'down');
    expect(ids(d)).toEqual([a.id, b.id, c.id, e.id]);
    // an order splitting the group is refused
    d.reorder([b.id, a.id, c.id, e.id]);
    expect(ids(d)).toEqual([a.id, b.id, c.id, e.id]);

    d.select([b.id, c.id]);
    d.copy();
    d.paste('1');
    const pasted = d.store.get().doc.widgets.slice(4);
    expect(pasted.map((w) => groupOf(w)?.name)).toEqual([g.name, g.name]);
    expect(groupOf(pasted[0])?.id).not.toBe(g.id);
    expect(groupOf(pasted[0])?.id).toBe(groupOf(pasted[1])?.id);
    d.duplicate([b.id], '1');
    expect(groupOf(d.store.get().doc.widgets.at(-1)!)).toBeNull();
    expect(groupFault(d.store.get().doc.widgets)).toBeNull();

    d.remove([b.id]);
    expect(groupOf(d.store.get().doc.widgets.find((w) => w.id === c.id)!)).toBeNull();
    expect(groupFault(d.store.get().doc.widgets)).toBeNull();
    d.undo();
    expect(groupOf(d.store.get().doc.widgets.find((w) => w.id === c.id)!)?.id).toBe(g.id);
    expect(ids(d).slice(0, 4)).toEqual([a.id, b.id, c.id, e.id]);
  });
});

describe('rename', () => {
  it('renames a layer and a group, undoable; an empty name changes nothing', () => {
    const d = createDesigner();
    const [a, b] = [box(0, 0, 10, 10), box(20, 0, 10, 10)];
    d.add(a);
    d.add(b);
    d.rename(a.id, '  销售标题 ');
    expect(d.store.get().doc.widgets[0].widgetTitle).toBe('销售标题');
    d.rename(a.id, '   ');
    expect(d.store.get().past.at(-1)?.label).toBe('重命名图层');
    d.undo();
    expect(d.store.get().doc.widgets[0].widgetTitle).toBe(a.widgetTitle);
    d.redo();
    d.select([a.id, b.id]);
    const g = d.group()!;
    d.renameGroup(g.id, '顶部区域');
    expect(d.store.get().doc.widgets.map((w) => groupOf(w)?.name)).toEqual(['顶部区域', '顶部区域']);
    d.undo();
    expect(d.store.get().doc.widgets.map((w) => groupOf(w)?.name)).toEqual(['分组1', '分组1']);
  });
});
