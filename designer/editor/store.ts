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
  regroupChange,
  removeChange,
  replaceChange,
  updateChange,
  type Change,
  type Doc,
} from './history';
import { aligned, allPickable, toggledSelection, ALIGN_LABELS, blocksOf, distributed, DISTRIBUTE_LABELS, loneMembersFreed, nextGroupName, regroupCopies, unitsOf, withGroup, withGroups, type AlignMode, type DistributeAxis } from './arrange';
import { GROUP_NAME_MAX, groupFault, groupOf } from '../../common/groups';

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
    /** Selects the ids and every member of their groups (a click on the canvas picks the whole group). */
    selectWithGroups(ids: string[]) {
      actions.select(withGroups(get().doc.widgets, ids));
    },
    /** Ctrl+A: every layer that is neither locked nor hidden. */
    selectAll() {
      actions.select(allPickable(get().doc.widgets));
    },
    /** Shift- / Ctrl-click: the layer (with its group) leaves the selection when in it, else joins it. */
    toggleSelected(id: string) {
      actions.select(toggledSelection(get().doc.widgets, get().selected, id));
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
      if (!live.length) return;
      const doc = get().doc;
      const change = removeChange(doc, live);
      // a group left with one member is no group: that member leaves it in the same step
      const gone = new Set(live);
      const freed = loneMembersFreed(doc.widgets.filter((w) => !gone.has(w.id)));
      const byId = new Map(doc.widgets.map((w) => [w.id, w]));
      change.widgets!.push(...freed.map((w) => ({ id: w.id, before: byId.get(w.id)!, after: w })));
      commit(change, []);
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
      actions.setFlags([id], flag, value);
    },
    /** Locks / hides several layers as one step (a group's members). */
    setFlags(ids: string[], flag: 'locked' | 'hidden', value: boolean) {
      const list = byIds(ids);
      if (list.length) commit(updateChange(get().doc, list.map((w) => (Boolean(w.widgetProps[flag]) === value ? w : { ...w, widgetProps: { ...w.widgetProps, [flag]: value } })), value ? (flag === 'locked' ? '锁定图层' : '隐藏图层') : flag === 'locked' ? '解锁图层' : '显示图层'));
    },
    /** One step up (towards the top of the stack) or down; a group moves as one block, past a whole block. */
    moveLayer(id: string, dir: 'up' | 'down') {
      const blocks = blocksOf(get().doc.widgets);
      const i = blocks.findIndex((b) => b.some((w) => w.id === id));
      const j = dir === 'up' ? i + 1 : i - 1;
      if (i < 0 || j < 0 || j >= blocks.length) return;
      [blocks[i], blocks[j]] = [blocks[j], blocks[i]];
      commit(orderChange(get().doc, blocks.flat().map((w) => w.id), dir === 'up' ? '上移一层' : '下移一层'));
    },
    /** Aligns the selected units (groups as one) to their bounding box; needs two. */
    align(mode: AlignMode) {
      const moved = aligned(unitsOf(get().doc.widgets, get().selected), mode);
      if (moved.length) commit(updateChange(get().doc, moved, ALIGN_LABELS[mode]));
    },
    /** Spaces the selected units evenly; needs three. */
    distribute(axis: DistributeAxis) {
      const moved = distributed(unitsOf(get().doc.widgets, get().selected), axis);
      if (moved.length) commit(updateChange(get().doc, moved, DISTRIBUTE_LABELS[axis]));
    },
    /**
     * 组合: the selection (two units at least; groups in it dissolve into the new one) becomes one group named
     * 分组N, its members gathered in the stacking order where the topmost of them was.
     */
    group() {
      const { doc, selected } = get();
      const units = unitsOf(doc.widgets, selected);
      if (units.length < 2) return null;
      const members = new Set(units.flatMap((u) => u.members.map((m) => m.id)));
      const group = { id: newId(), name: nextGroupName(doc.widgets) };
      const inGroup = doc.widgets.filter((w) => members.has(w.id));
      const top = doc.widgets.findLastIndex((w) => members.has(w.id));
      const below = doc.widgets.slice(0, top + 1).filter((w) => !members.has(w.id));
      const above = doc.widgets.slice(top + 1);
      const order = [...below, ...inGroup, ...above].map((w) => w.id);
      // groups the selection took only part of keep their other members: alone, they leave too
      const rest = doc.widgets.filter((w) => !members.has(w.id));
      commit(regroupChange(doc, [...inGroup.map((w) => withGroup(w, group)), ...loneMembersFreed(rest)], order, '组合'), [...members]);
      return group;
    },
    /** 取消组合: every group the selection touches. */
    ungroup() {
      const { doc, selected } = get();
      const chosen = new Set(selected);
      const groups = new Set(doc.widgets.filter((w) => chosen.has(w.id)).map((w) => groupOf(w)?.id).filter(Boolean));
      if (!groups.size) return;
      commit(regroupChange(doc, doc.widgets.filter((w) => groups.has(groupOf(w)?.id)).map((w) => withGroup(w, null)), null, '取消组合'));
    },
    /** Renames a layer (its widgetTitle, at most 100 characters); an empty name changes nothing. */
    rename(id: string, title: string) {
      const w = byIds([id])[0];
      const name = title.trim().slice(0, 100);
      if (w && name && name !== w.widgetTitle) commit(updateChange(get().doc, [{ ...w, widgetTitle: name }], '重命名图层'));
    },
    /** Renames a group (on each member). */
    renameGroup(groupId: string, title: string) {
      const name = title.trim().slice(0, GROUP_NAME_MAX);
      const members = get().doc.widgets.filter((w) => groupOf(w)?.id === groupId);
      if (name && members.length && groupOf(members[0])!.name !== name) commit(regroupChange(get().doc, members.map((w) => withGroup(w, { id: groupId, name })), null, '重命名分组'));
    },
    reorder(order: string[]) {
      // a group's members stay together: an order that splits one is not taken
      const byId = new Map(get().doc.widgets.map((w) => [w.id, w]));
      if (groupFault(order.map((id) => byId.get(id)).filter((w): w is WidgetEntity => Boolean(w)))) return;
      commit(orderChange(get().doc, order));
    },
    setCanvas(canvas: CanvasProps) {
      commit(canvasChange(get().doc, canvas));
    },
    /** 复制图层: copies placed 20 px lower right, on top, selected. */
    duplicate(ids: string[], pageId: string) {
      const copies = regroupCopies(freshFields(byIds(ids).map((w) => shifted(w, pageId, 20)), get().doc.widgets), newId);
      if (copies.length) commit(addChange(get().doc, copies, '复制图层'), copies.map((w) => w.id));
    },
    copy() {
      const picked = byIds(get().selected);
      if (picked.length) store.set((s) => ({ ...s, clipboard: picked }));
      return picked.length;
    },
    paste(pageId: string) {
      const copies = regroupCopies(freshFields(get().clipboard.map((w) => shifted(w, pageId, 20)), get().doc.widgets), newId);
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
