import { createWidget } from '../../widgets';
import { createDesigner, isDirty } from './store';

const make = (top = 0, left = 0) => createWidget('singleLineTitle', { pageId: '1', top, left });

describe('designer store: changes, undo and redo', () => {
  it('undoes and redoes add, move, property change, layer order and delete, each as one step', () => {
    const d = createDesigner();
    const a = make();
    const b = make(100, 100);
    d.add(a);
    d.add(b);
    d.layout([{ id: a.id, left: 50, top: 60 }]);
    d.patchProps(a.id, { viewProps: { ...d.store.get().doc.widgets[0].widgetProps.viewProps, text: '销售大屏' } });
    d.moveLayer(a.id, 'up');
    d.remove([b.id]);
    const doc = () => d.store.get().doc;
    expect(doc().widgets.map((w) => w.id)).toEqual([a.id]);
    d.undo(); // delete
    expect(doc().widgets.map((w) => w.id)).toEqual([b.id, a.id]);
    d.undo(); // order
    expect(doc().widgets.map((w) => w.id)).toEqual([a.id, b.id]);
    d.undo(); // text
    expect(doc().widgets[0].widgetProps.viewProps.text).not.toBe('销售大屏');
    d.undo(); // move
    expect(doc().widgets[0].widgetProps.viewProps).toMatchObject({ left: 0, top: 0 });
    d.redo();
    d.redo();
    expect(doc().widgets[0].widgetProps.viewProps).toMatchObject({ left: 50, top: 60, text: '销售大屏' });
    // a new edit drops the redo stack
    d.select([a.id]);
    d.nudge(1, 0);
    expect(d.store.get().future).toHaveLength(0);
  });

  it('keeps at least 100 steps, stored as changes that share the untouched widgets', () => {
    const d = createDesigner();
    const w = make();
    const others = Array.from({ length: 50 }, (_, i) => make(i * 10, i * 10));
    d.add(w);
    others.forEach((o) => d.add(o));
    for (let i = 1; i <= 120; i++) d.layout([{ id: w.id, left: i }]);
    const s = d.store.get();
    expect(s.past.length).toBeGreaterThanOrEqual(100);
    // a move records one widget, not the canvas
    expect(s.past[s.past.length - 1].widgets).toHaveLength(1);
    expect(s.past[s.past.length - 1].order).toBeUndefined();
    for (let i = 0; i < 100; i++) d.undo();
    expect(d.store.get().doc.widgets[0].widgetProps.viewProps.left).toBe(20);
    // the untouched widgets are the very same objects
    expect(d.store.get().doc.widgets[1]).toBe(others[0]);
  });

  it('merges a burst of edits to one field into one step, and tracks unsaved changes against the save', () => {
    const d = createDesigner();
    const w = make();
    d.add(w);
    d.markSaved();
    expect(isDirty(d.store.get())).toBe(false);
    for (const text of ['销', '销售', '销售额']) d.patchProps(w.id, { viewProps: { ...d.store.get().doc.widgets[0].widgetProps.viewProps, text } });
    expect(d.store.get().past).toHaveLength(2);
    expect(isDirty(d.store.get())).toBe(true);
    d.undo();
    expect(isDirty(d.store.get())).toBe(false);
  });

  it('copies, pastes and duplicates with new ids; locked layers do not move with the arrow keys', () => {
    const d = createDesigner();
    const w = make(10, 10);
    d.add(w);
    d.select([w.id]);
    expect(d.copy()).toBe(1);
    d.paste('1');
    const [, pasted] = d.store.get().doc.widgets;
    expect(pasted.id).not.toBe(w.id);
    expect(pasted.widgetProps.viewProps).toMatchObject({ left: 30, top: 30 });
    expect(d.store.get().selected).toEqual([pasted.id]);
    d.setFlag(pasted.id, 'locked', true);
    d.nudge(10, 0);
    expect(d.store.get().doc.widgets[1].widgetProps.viewProps.left).toBe(30);
    d.duplicate([w.id], '1');
    expect(d.store.get().doc.widgets).toHaveLength(3);
  });

  it('gives copied and pasted form fields field names of their own (input_1 → input_2), other props kept', () => {
    const d = createDesigner();
    const f = createWidget('formInput', { pageId: '1' });
    f.widgetProps.viewProps = { ...f.widgetProps.viewProps, field: 'input_1', label: '手机号码', required: true };
    const g = createWidget('formInput', { pageId: '1', top: 100 });
    g.widgetProps.viewProps = { ...g.widgetProps.viewProps, field: 'mobile' };
    d.add(f);
    d.add(g);
    d.select([f.id, g.id]);
    d.copy();
    d.paste('1');
    d.duplicate([f.id], '1');
    const fields = d.store.get().doc.widgets.map((w) => w.widgetProps.viewProps.field);
    expect(fields).toEqual(['input_1', 'mobile', 'input_2', 'input_3', 'input_4']);
    expect(new Set(fields).size).toBe(fields.length);
    expect(d.store.get().doc.widgets[2].widgetProps.viewProps).toMatchObject({ label: '手机号码', required: true });
  });

  it('two designers share nothing', () => {
    const one = createDesigner();
    const two = createDesigner();
    one.add(make());
    one.select([one.store.get().doc.widgets[0].id]);
    one.copy();
    expect(two.store.get().doc.widgets).toHaveLength(0);
    expect(two.paste('2')).toBe(0);
  });

  it('replaces the whole canvas on import as one undoable step', () => {
    const d = createDesigner();
    const a = make();
    d.add(a);
    const b = make(5, 5);
    d.replace({ canvas: { width: 800, height: 600, backgroundColor: '#000000', refreshSeconds: 5 }, widgets: [b] });
    expect(d.store.get().doc.widgets.map((x) => x.id)).toEqual([b.id]);
    d.undo();
    expect(d.store.get().doc.widgets.map((x) => x.id)).toEqual([a.id]);
    expect(d.store.get().doc.canvas.width).toBe(1920);
  });
});

describe('designer store: selecting several layers (issue 35 §7)', () => {
  it('Ctrl+A takes every layer neither locked nor hidden, and is no undo step', () => {
    const d = createDesigner();
    const [a, b, c, e] = [make(), make(10, 10), make(20, 20), make(30, 30)];
    [a, b, c, e].forEach((w) => d.add(w));
    d.setFlag(b.id, 'locked', true);
    d.setFlag(c.id, 'hidden', true);
    const steps = d.store.get().past.length;
    d.selectAll();
    expect(d.store.get().selected).toEqual([a.id, e.id]);
    expect(d.store.get().past).toHaveLength(steps);
  });

  it('Shift- / Ctrl-click adds a layer and takes it out again; a group joins and leaves as one', () => {
    const d = createDesigner();
    const [a, b, c] = [make(), make(10, 10), make(20, 20)];
    [a, b, c].forEach((w) => d.add(w));
    d.select([b.id, c.id]);
    d.group();
    d.select([a.id]);
    d.toggleSelected(b.id);
    expect([...d.store.get().selected].sort()).toEqual([a.id, b.id, c.id].sort());
    d.toggleSelected(c.id);
    expect(d.store.get().selected).toEqual([a.id]);
    d.toggleSelected(a.id);
    expect(d.store.get().selected).toEqual([]);
  });
});
