// Arranging the selection (issue 22 §3): alignment, distribution and layer groups, as pure functions of the
// widget list the store turns into changes. A "unit" is what moves as one: a group whose members are all
// selected, or a single widget. Groups are stored on the members (common/groups.ts).
import { groupOf, type WidgetGroup } from '../../common/groups';
import type { WidgetEntity } from '../../widgets';

export type AlignMode = 'left' | 'center' | 'right' | 'top' | 'middle' | 'bottom';
export type DistributeAxis = 'horizontal' | 'vertical';

export const ALIGN_LABELS: Record<AlignMode, string> = {
  left: '左对齐',
  center: '水平居中对齐',
  right: '右对齐',
  top: '顶端对齐',
  middle: '垂直居中对齐',
  bottom: '底端对齐',
};
export const DISTRIBUTE_LABELS: Record<DistributeAxis, string> = { horizontal: '水平等距分布', vertical: '垂直等距分布' };

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface Unit {
  members: WidgetEntity[];
  box: Box;
  /** a locked member keeps the whole unit in place */
  locked: boolean;
}

const boxOf = (list: readonly WidgetEntity[]): Box => {
  const b = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
  for (const w of list) {
    const v = w.widgetProps.viewProps;
    b.left = Math.min(b.left, v.left);
    b.top = Math.min(b.top, v.top);
    b.right = Math.max(b.right, v.left + v.width);
    b.bottom = Math.max(b.bottom, v.top + v.height);
  }
  return b;
};

/** The selected widgets as units (in stacking order): a fully selected group is one. */
export function unitsOf(widgets: readonly WidgetEntity[], selected: readonly string[]): Unit[] {
  const chosen = new Set(selected);
  const byGroup = new Map<string, WidgetEntity[]>();
  for (const w of widgets) {
    const g = groupOf(w);
    if (g) byGroup.set(g.id, [...(byGroup.get(g.id) ?? []), w]);
  }
  const units: Unit[] = [];
  const done = new Set<string>();
  for (const w of widgets) {
    if (!chosen.has(w.id)) continue;
    const g = groupOf(w);
    const all = g ? byGroup.get(g.id)! : null;
    let members: WidgetEntity[];
    if (g && all!.every((m) => chosen.has(m.id))) {
      if (done.has(g.id)) continue;
      done.add(g.id);
      members = all!;
    } else members = [w];
    units.push({ members, box: boxOf(members), locked: members.some((m) => m.widgetProps.locked) });
  }
  return units;
}

/** The ids plus every member of each group one of them is in (a click on a member selects its group). */
export function withGroups(widgets: readonly WidgetEntity[], ids: readonly string[]): string[] {
  const picked = new Set(ids);
  const groups = new Set(widgets.filter((w) => picked.has(w.id)).map((w) => groupOf(w)?.id).filter(Boolean));
  if (!groups.size) return [...ids];
  const out = [...ids];
  for (const w of widgets) if (!picked.has(w.id) && groups.has(groupOf(w)?.id)) out.push(w.id);
  return out;
}

/** A layer a selection band or Ctrl+A may take: neither locked nor hidden. */
export const pickable = (w: WidgetEntity) => !w.widgetProps.locked && !w.widgetProps.hidden;

/** Ctrl+A: every pickable layer, in stacking order. */
export function allPickable(widgets: readonly WidgetEntity[]): string[] {
  return widgets.filter(pickable).map((w) => w.id);
}

/**
 * Shift- / Ctrl-click on a layer: takes it out of the selection when it is in, else adds it; either way with the
 * rest of its group (a group is picked and dropped as one).
 */
export function toggledSelection(widgets: readonly WidgetEntity[], selected: readonly string[], id: string): string[] {
  const unit = new Set(withGroups(widgets, [id]));
  if (selected.includes(id)) return selected.filter((x) => !unit.has(x));
  return [...selected, ...[...unit].filter((x) => !selected.includes(x))];
}

const shift = (w: WidgetEntity, dx: number, dy: number): WidgetEntity => {
  if (!dx && !dy) return w;
  const v = w.widgetProps.viewProps;
  return { ...w, widgetProps: { ...w.widgetProps, viewProps: { ...v, left: Math.round(v.left + dx), top: Math.round(v.top + dy) } } };
};

/** The moved members when the units align to the selection's bounding box (locked units stay). */
export function aligned(units: readonly Unit[], mode: AlignMode): WidgetEntity[] {
  if (units.length < 2) return [];
  const all = boxOf(units.flatMap((u) => u.members));
  const out: WidgetEntity[] = [];
  for (const u of units) {
    if (u.locked) continue;
    const b = u.box;
    let dx = 0;
    let dy = 0;
    if (mode === 'left') dx = all.left - b.left;
    else if (mode === 'right') dx = all.right - b.right;
    else if (mode === 'center') dx = Math.round((all.left + all.right) / 2 - (b.left + b.right) / 2);
    else if (mode === 'top') dy = all.top - b.top;
    else if (mode === 'bottom') dy = all.bottom - b.bottom;
    else dy = Math.round((all.top + all.bottom) / 2 - (b.top + b.bottom) / 2);
    if (dx || dy) out.push(...u.members.map((m) => shift(m, dx, dy)));
  }
  return out;
}

/**
 * The moved members when the units are spaced evenly along an axis: the first and the last (by position) stay,
 * the gaps between neighbours become equal. Needs three units; locked units stay where they are.
 */
export function distributed(units: readonly Unit[], axis: DistributeAxis): WidgetEntity[] {
  if (units.length < 3) return [];
  const [lo, hi] = axis === 'horizontal' ? (['left', 'right'] as const) : (['top', 'bottom'] as const);
  const sorted = [...units].sort((a, b) => a.box[lo] - b.box[lo] || a.box[hi] - b.box[hi]);
  const first = sorted[0].box;
  const last = sorted[sorted.length - 1].box;
  const sizes = sorted.reduce((n, u) => n + (u.box[hi] - u.box[lo]), 0);
  const gap = (last[hi] - first[lo] - sizes) / (sorted.length - 1);
  const out: WidgetEntity[] = [];
  let at = first[lo];
  sorted.forEach((u, i) => {
    const target = Math.round(at);
    at += u.box[hi] - u.box[lo] + gap;
    if (i === 0 || i === sorted.length - 1 || u.locked) return;
    const d = target - u.box[lo];
    if (d) out.push(...u.members.map((m) => (axis === 'horizontal' ? shift(m, d, 0) : shift(m, 0, d))));
  });
  return out;
}

export const withGroup = (w: WidgetEntity, group: WidgetGroup | null): WidgetEntity => {
  if (group === null) {
    if (!w.widgetProps.group) return w;
    const { group: _g, ...rest } = w.widgetProps;
    return { ...w, widgetProps: rest };
  }
  return { ...w, widgetProps: { ...w.widgetProps, group } };
};

/** The smallest free 分组N name on the page. */
export function nextGroupName(widgets: readonly WidgetEntity[]): string {
  const taken = new Set(widgets.map((w) => groupOf(w)?.name));
  let n = 1;
  while (taken.has(`分组${n}`)) n++;
  return `分组${n}`;
}

/** Members left alone in their group (after a delete): they leave it. */
export function loneMembersFreed(widgets: readonly WidgetEntity[]): WidgetEntity[] {
  const count = new Map<string, number>();
  for (const w of widgets) {
    const g = groupOf(w);
    if (g) count.set(g.id, (count.get(g.id) ?? 0) + 1);
  }
  return widgets.filter((w) => count.get(groupOf(w)?.id ?? '') === 1).map((w) => withGroup(w, null));
}

/**
 * Copies (duplicate, paste) get groups of their own: copies of one group share a new group id, a lone copy of a
 * member leaves the group.
 */
export function regroupCopies(copies: WidgetEntity[], newId: () => string): WidgetEntity[] {
  const count = new Map<string, number>();
  for (const w of copies) {
    const g = groupOf(w);
    if (g) count.set(g.id, (count.get(g.id) ?? 0) + 1);
  }
  const fresh = new Map<string, string>();
  return copies.map((w) => {
    const g = groupOf(w);
    if (!g) return w.widgetProps.group === undefined ? w : withGroup(w, null);
    if (count.get(g.id)! < 2) return withGroup(w, null);
    if (!fresh.has(g.id)) fresh.set(g.id, newId());
    return withGroup(w, { id: fresh.get(g.id)!, name: g.name });
  });
}

/** The stacking order cut into blocks: a group's members (contiguous) or a single widget, bottom first. */
export function blocksOf(widgets: readonly WidgetEntity[]): WidgetEntity[][] {
  const blocks: WidgetEntity[][] = [];
  for (const w of widgets) {
    const g = groupOf(w);
    const prev = blocks[blocks.length - 1];
    if (g && prev && groupOf(prev[0])?.id === g.id) prev.push(w);
    else blocks.push([w]);
  }
  return blocks;
}
