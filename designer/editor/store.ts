// One designer's state (issue 9 §8: every piece lives in the instance, none at module level): the document
// (canvas + widgets in stacking order, bottom first), the selection, undo / redo stacks and the clipboard.
import { createStore, type Store } from '../../runtime/core/store';
import type { WidgetEntity } from '../../widgets';
import type { CanvasProps } from '../panel/canvasPanel';
import {
  addChange,
  applyChange,
  canvasChange,
  HISTORY_LIMIT,
  isEmpty,
  mergeChanges,
  orderChange,
  removeChange,
  replaceChange,
  updateChange,
  type Change,
  type Doc,
} from './history';

export interface DesignerState {
  doc: Doc;
  selected: string[];
  past: Change[];
  future: Change[];
  /** the newest change when last saved: the document is clean while it is still the newest */
  savedTop: Change | null;
  clipboard: WidgetEntity[];
}

export interface LayoutPatch {
  id: string;
  left?: number;
  top?: number;
  width?: number;
  height?: number;
}

const newId = () => globalThis.crypto?.randomUUID?.() ?? `w${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

export function isDirty(s: DesignerState): boolean {
  return (s.past[s.past.length - 1] ?? null) !== s.savedTop;
}

export function withLayout(w: WidgetEntity, p: Omit<LayoutPatch, 'id'>): WidgetEntity {
  const v = w.widgetProps.viewProps;
  const next = { ...v };
  for (const k of ['left', 'top', 'width', 'height'] as const) if (p[k] !== undefined) next[k] = Math.round(p[k]!);
  next.width = Math.max(10, next.width);
  next.height = Math.max(10, next.height);
  if (next.left === v.left && next.top === v.top && next.width === v.width && next.height === v.height) return w;
  return { ...w, widgetProps: { ...w.widgetProps, viewProps: next } };
}

export type Designer = ReturnType<typeof createDesigner>;

export function createDesigner(initial?: Partial<Doc>) {
  const store: Store<DesignerState> = createStore<DesignerState>({
    doc: { canvas: initial?.canvas ?? { width: 1920, height: 1080, backgroundColor: '', refreshSeconds: null }, widgets: initial?.widgets ?? [] },
    selected: [],
    past: [],
    future: [],
    savedTop: null,
    clipboard: [],
  });
  const get = store.get;

  const commit = (change: Change, selected?: string[]) => {
    if (isEmpty(change)) return;
    store.set((s) => {
      const top = s.past[s.past.length - 1];
      // merging into the saved step would hide the edit from the dirty check
      const merged = top && top !== s.savedTop ? mergeChanges(top, change) : null;
      const past = merged ? [...s.past.slice(0, -1), merged] : [...s.past, change].slice(-HISTORY_LIMIT);
      return { ...s, doc: applyChange(s.doc, change, 'redo'), past, future: [], selected: selected ?? s.selected.filter((id) => applyChange(s.doc, change, 'redo').widgets.some((w) => w.id === id)) };
    });
  };

  const byIds = (ids: string[]) => get().doc.widgets.filter((w) => ids.includes(w.id));

  const actions = {
    store,
    load(doc: Doc) {
      store.set((s) => ({ ...s, doc, selected: [], past: [], future: [], savedTop: null }));
    },
    markSaved() {
      store.set((s) => ({ ...s, savedTop: s.past[s.past.length - 1] ?? null }));
    },
    select(ids: string[]) {
      store.set((s) => (s.selected.join() === ids.join() ? s : { ...s, selected: ids }));
    },
    undo() {
      store.set((s) => {
        const c = s.past[s.past.length - 1];
        if (!c) return s;
        const doc = applyChange(s.doc, c, 'undo');
        return { ...s, doc, past: s.past.slice(0, -1), future: [...s.future, c], selected: s.selected.filter((id) => doc.widgets.some((w) => w.id === id)) };
      });
    },
    redo() {
      store.set((s) => {
        const c = s.future[s.future.length - 1];
        if (!c) return s;
        const doc = applyChange(s.doc, c, 'redo');
        return { ...s, doc, past: [...s.past, c], future: s.future.slice(0, -1), selected: s.selected.filter((id) => doc.widgets.some((w) => w.id === id)) };
      });
    },
    add(w: WidgetEntity) {
      commit(addChange(get().doc, [w]), [w.id]);
    },
    remove(ids: string[]) {
      const live = byIds(ids).map((w) => w.id);
      if (live.length) commit(removeChange(get().doc, live), []);
    },
    patchProps(id: string, patch: Partial<WidgetEntity['widgetProps']>, label = '修改属性') {
      const w = byIds([id])[0];
      if (!w) return;
      const key = `props:${id}:${Object.keys(patch).join(',')}`;
      commit(updateChange(get().doc, [{ ...w, widgetProps: { ...w.widgetProps, ...patch } }], label, key));
    },
    layout(patches: LayoutPatch[], label = '移动图层') {
      const byId = new Map(get().doc.widgets.map((w) => [w.id, w]));
      const next = patches.filter((p) => byId.has(p.id)).map((p) => withLayout(byId.get(p.id)!, p));
      commit(updateChange(get().doc, next, label));
    },
    /** Arrow keys: the selection moves by dx, dy (locked layers stay). */
    nudge(dx: number, dy: number) {
      const moving = byIds(get().selected).filter((w) => !w.widgetProps.locked);
      if (!moving.length) return;
      const key = `nudge:${moving.map((w) => w.id).join()}`;
      commit(updateChange(get().doc, moving.map((w) => withLayout(w, { left: w.widgetProps.viewProps.left + dx, top: w.widgetProps.viewProps.top + dy })), '移动图层', key));
    },
    setFlag(id: string, flag: 'locked' | 'hidden', value: boolean) {
      const w = byIds([id])[0];
      if (w) commit(updateChange(get().doc, [{ ...w, widgetProps: { ...w.widgetProps, [flag]: value } }], value ? (flag === 'locked' ? '锁定图层' : '隐藏图层') : flag === 'locked' ? '解锁图层' : '显示图层'));
    },
    /** One step up (towards the top of the stack) or down. */
    moveLayer(id: string, dir: 'up' | 'down') {
      const order = get().doc.widgets.map((w) => w.id);
      const i = order.indexOf(id);
      const j = dir === 'up' ? i + 1 : i - 1;
      if (i < 0 || j < 0 || j >= order.length) return;
      [order[i], order[j]] = [order[j], order[i]];
      commit(orderChange(get().doc, order, dir === 'up' ? '上移一层' : '下移一层'));
    },
    reorder(order: string[]) {
      commit(orderChange(get().doc, order));
    },
    setCanvas(canvas: CanvasProps) {
      commit(canvasChange(get().doc, canvas));
    },
    /** 复制图层: copies placed 20 px lower right, on top, selected. */
    duplicate(ids: string[], pageId: string) {
      const copies = freshFields(byIds(ids).map((w) => shifted(w, pageId, 20)), get().doc.widgets);
      if (copies.length) commit(addChange(get().doc, copies, '复制图层'), copies.map((w) => w.id));
    },
    copy() {
      const picked = byIds(get().selected);
      if (picked.length) store.set((s) => ({ ...s, clipboard: picked }));
      return picked.length;
    },
    paste(pageId: string) {
      const copies = freshFields(get().clipboard.map((w) => shifted(w, pageId, 20)), get().doc.widgets);
      if (!copies.length) return 0;
      // a second paste lands further off
      store.set((s) => ({ ...s, clipboard: copies }));
      commit(addChange(get().doc, copies, '粘贴图层'), copies.map((w) => w.id));
      return copies.length;
    },
    replace(doc: Doc) {
      commit(replaceChange(get().doc, doc), []);
    },
  };
  return actions;
}

/**
 * Copies of form fields get field names of their own (a form's field names are unique, the server refuses a
 * duplicate): the kind's base and the smallest free number, as the server names a dropped field (input_2).
 */
export function freshFields(copies: WidgetEntity[], existing: readonly WidgetEntity[]): WidgetEntity[] {
  const fieldOf = (w: WidgetEntity) => w.widgetProps.viewProps.field;
  const taken = new Set(existing.map(fieldOf).filter((f): f is string => typeof f === 'string' && f !== ''));
  return copies.map((w) => {
    const f = fieldOf(w);
    if (typeof f !== 'string' || f === '' || !taken.has(f)) {
      if (typeof f === 'string' && f) taken.add(f);
      return w;
    }
    const base = w.widgetName.replace(/^form/, '').toLowerCase() || 'field';
    let n = 1;
    while (taken.has(`${base}_${n}`)) n++;
    taken.add(`${base}_${n}`);
    return { ...w, widgetProps: { ...w.widgetProps, viewProps: { ...w.widgetProps.viewProps, field: `${base}_${n}` } } };
  });
}

function shifted(w: WidgetEntity, pageId: string, by: number): WidgetEntity {
  const v = w.widgetProps.viewProps;
  return { ...w, id: newId(), pageId, widgetProps: { ...structuredClone(w.widgetProps), viewProps: { ...structuredClone(v), left: v.left + by, top: v.top + by }, locked: false } };
}
