// Layer groups (issue 22 §3), one copy for the designer, its import check and the server's widget/update.
// A group is not a widget kind: each member widget carries `widgetProps.group = { id, name }`, so the spec's
// flat widget list, the preview and every kind stay as they are. A group's members are contiguous in the
// stacking order (the layer list shows them as one entry), agree on the name, and are at least two.
// Framework-free: both sides import it.

export interface WidgetGroup {
  /** letters, digits and '-', at most 36 characters (a UUID) */
  id: string;
  /** the name the layer list shows, 1..50 characters */
  name: string;
}

export const GROUP_NAME_MAX = 50;
export const GROUP_ID = /^[A-Za-z0-9-]{1,36}$/;

interface Grouped {
  widgetProps?: unknown;
}

const rawGroup = (w: Grouped): unknown => (w.widgetProps && typeof w.widgetProps === 'object' ? (w.widgetProps as { group?: unknown }).group : undefined);

/** The group a widget belongs to (null, absent or malformed: none). */
export function groupOf(w: Grouped): WidgetGroup | null {
  const g = rawGroup(w);
  return isGroup(g) ? g : null;
}

function isGroup(g: unknown): g is WidgetGroup {
  if (!g || typeof g !== 'object' || Array.isArray(g)) return false;
  const { id, name } = g as Record<string, unknown>;
  return typeof id === 'string' && GROUP_ID.test(id) && typeof name === 'string' && name.trim().length > 0 && name.length <= GROUP_NAME_MAX;
}

/**
 * What is wrong with the groups of a widget list (in stacking order), in Chinese, or null. `at(i)` names
 * the i-th widget in a message (第 3 个部件).
 */
export function groupFault(list: readonly Grouped[], at: (i: number) => string = (i) => `第 ${i + 1} 个部件`): string | null {
  const seen = new Map<string, { name: string; count: number; last: number }>();
  for (let i = 0; i < list.length; i++) {
    const g = rawGroup(list[i]);
    if (g === undefined || g === null) continue;
    if (!isGroup(g) || Object.keys(g).some((k) => k !== 'id' && k !== 'name')) {
      return `${at(i)}的分组不合法：应为 { id, name }，编号只含字母、数字和 -（至多 36 个字符），名称 1 到 ${GROUP_NAME_MAX} 个字符`;
    }
    const s = seen.get(g.id);
    if (!s) {
      seen.set(g.id, { name: g.name, count: 1, last: i });
      continue;
    }
    if (s.name !== g.name) return `分组【${s.name}】的图层名称不一致（${at(i)}写作【${g.name}】）`;
    if (s.last !== i - 1) return `分组【${s.name}】的图层在叠放顺序中不相邻（${at(i)}）`;
    s.count++;
    s.last = i;
  }
  for (const s of seen.values()) if (s.count < 2) return `分组【${s.name}】只有一个图层，一个分组至少要有两个图层`;
  return null;
}
