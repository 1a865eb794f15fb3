// Undo / redo as changes, not canvas copies (issue 9 §4): a change lists, per widget it touched, the entity
// before and after (null = absent), the stacking order before and after when membership or order moved, and
// the canvas before and after when it changed. Entities are immutable, so before/after are shared references.
import type { WidgetEntity } from '../../widgets';
import type { CanvasProps } from '../panel/canvasPanel';

export interface WidgetChange {
  id: string;
  before: WidgetEntity | null;
  after: WidgetEntity | null;
}

export interface Change {
  label: string;
  widgets?: WidgetChange[];
  order?: { before: string[]; after: string[] };
  canvas?: { before: CanvasProps; after: CanvasProps };
  /** Consecutive changes with the same key (typing in one panel field) merge into one step. */
  key?: string;
  at?: number;
}

export interface Doc {
  canvas: CanvasProps;
  widgets: readonly WidgetEntity[];
}

export const HISTORY_LIMIT = 200;
const MERGE_MS = 1000;

/** The document after (redo) or before (undo) a change. */
export function applyChange(doc: Doc, change: Change, dir: 'redo' | 'undo'): Doc {
  const pick = <T,>(p: { before: T; after: T }) => (dir === 'redo' ? p.after : p.before);
  let widgets = doc.widgets;
  if (change.widgets?.length || change.order) {
    const byId = new Map(doc.widgets.map((w) => [w.id, w]));
    for (const c of change.widgets ?? []) {
      const next = pick(c);
      if (next) byId.set(c.id, next);
      else byId.delete(c.id);
    }
    const ids = change.order ? pick(change.order) : doc.widgets.map((w) => w.id).filter((id) => byId.has(id));
    // ids the order does not mention (should not happen) stay on top rather than vanish
    const rest = [...byId.keys()].filter((id) => !ids.includes(id));
    widgets = [...ids, ...rest].map((id) => byId.get(id)).filter((w): w is WidgetEntity => Boolean(w));
  }
  return { canvas: change.canvas ? pick(change.canvas) : doc.canvas, widgets };
}

/** Merges `next` into `prev` when they edit the same thing in quick succession (one undo step per edit burst). */
export function mergeChanges(prev: Change, next: Change): Change | null {
  if (!prev.key || prev.key !== next.key || (next.at ?? 0) - (prev.at ?? 0) > MERGE_MS) return null;
  const widgets = new Map((prev.widgets ?? []).map((c) => [c.id, { ...c }]));
  for (const c of next.widgets ?? []) {
    const old = widgets.get(c.id);
    widgets.set(c.id, { id: c.id, before: old ? old.before : c.before, after: c.after });
  }
  return {
    ...next,
    at: next.at,
    widgets: [...widgets.values()],
    order: prev.order && next.order ? { before: prev.order.before, after: next.order.after } : (next.order ?? prev.order),
    canvas: prev.canvas && next.canvas ? { before: prev.canvas.before, after: next.canvas.after } : (next.canvas ?? prev.canvas),
  };
}

// ---- the changes of each edit ------------------------------------------------------------------------

const ids = (list: readonly WidgetEntity[]) => list.map((w) => w.id);

export function addChange(doc: Doc, added: WidgetEntity[], label = '添加图层'): Change {
  return { label, widgets: added.map((w) => ({ id: w.id, before: null, after: w })), order: { before: ids(doc.widgets), after: [...ids(doc.widgets), ...added.map((w) => w.id)] } };
}

export function removeChange(doc: Doc, removed: string[], label = '删除图层'): Change {
  const gone = new Set(removed);
  return {
    label,
    widgets: doc.widgets.filter((w) => gone.has(w.id)).map((w) => ({ id: w.id, before: w, after: null })),
    order: { before: ids(doc.widgets), after: ids(doc.widgets).filter((id) => !gone.has(id)) },
  };
}

/** Replaces widgets by id (moves, resizes, property edits, lock / hide). */
export function updateChange(doc: Doc, next: WidgetEntity[], label: string, key?: string): Change {
  const byId = new Map(doc.widgets.map((w) => [w.id, w]));
  return { label, key, at: Date.now(), widgets: next.filter((w) => byId.has(w.id) && byId.get(w.id) !== w).map((w) => ({ id: w.id, before: byId.get(w.id)!, after: w })) };
}

/** Replaces widgets by id and sets a new stacking order, as one step (grouping gathers the members). */
export function regroupChange(doc: Doc, next: WidgetEntity[], order: string[] | null, label: string): Change {
  const c = updateChange(doc, next, label);
  delete c.at;
  return order && order.join() !== ids(doc.widgets).join() ? { ...c, order: { before: ids(doc.widgets), after: order } } : c;
}

export function orderChange(doc: Doc, after: string[], label = '调整图层顺序'): Change {
  return { label, order: { before: ids(doc.widgets), after } };
}

export function canvasChange(doc: Doc, canvas: CanvasProps, key = 'canvas'): Change {
  return { label: '修改画布', key, at: Date.now(), canvas: { before: doc.canvas, after: canvas } };
}

/** Import: the whole canvas replaced, as one step. */
export function replaceChange(doc: Doc, next: Doc): Change {
  return {
    label: '导入',
    canvas: { before: doc.canvas, after: next.canvas },
    widgets: [...doc.widgets.map((w) => ({ id: w.id, before: w, after: null as WidgetEntity | null })), ...next.widgets.map((w) => ({ id: w.id, before: null as WidgetEntity | null, after: w }))].reduce<WidgetChange[]>((out, c) => {
      const same = out.find((o) => o.id === c.id);
      if (same) same.after = c.after;
      else out.push(c);
      return out;
    }, []),
    order: { before: ids(doc.widgets), after: ids(next.widgets) },
  };
}

/** Is the change empty (nothing to record)? */
export function isEmpty(c: Change): boolean {
  return !c.widgets?.length && !c.canvas && !(c.order && c.order.before.join() !== c.order.after.join());
}
