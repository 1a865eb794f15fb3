import { echarts } from '../charts/echarts';
import { ChartWidget, type OptionBuilder } from '../charts/ChartWidget';
import { label, num } from '../charts/options';
import type { MappedData } from '../types';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

type Props = ViewPropsOf<'treemapChart'>;

export interface TreeNode {
  name: string;
  value?: number;
  children?: TreeNode[];
}

/**
 * The tree of the mapped rows: each row a node (`name`, `value`), under the row named by its `parent` (a parent named
 * but absent is made, a top-level block summing its children); no parent, or one that would close a loop, puts the row
 * at the top. A node with children is as large as they are together, or its own value when that is larger.
 */
export function buildTree(data: MappedData): TreeNode[] {
  const nodes = data.rows.map((r) => ({ node: { name: label(r.name), value: num(r.value) } as TreeNode, parent: label(r.parent) }));
  const byName = new Map<string, TreeNode>();
  for (const { node } of nodes) if (!byName.has(node.name)) byName.set(node.name, node);
  const up = new Map<TreeNode, TreeNode>();
  const roots: TreeNode[] = [];
  const below = (node: TreeNode, ancestor: TreeNode) => {
    for (let n: TreeNode | undefined = node; n; n = up.get(n)) if (n === ancestor) return true;
    return false;
  };
  for (const { node, parent } of nodes) {
    let p = parent ? byName.get(parent) : undefined;
    if (parent && !p) {
      p = { name: parent };
      byName.set(parent, p);
      roots.push(p);
    }
    if (!p || below(p, node)) roots.push(node);
    else {
      up.set(node, p);
      (p.children ??= []).push(node);
    }
  }
  return roots;
}

/** How much of its colour a parent block shows behind its children. */
export const PARENT_TINT = 0.1;

/**
 * Each block translucent in its top-level block's colour, the larger the more opaque (at most `blockOpacity`: the
 * labels stay readable on the canvas showing through).
 */
function paint(nodes: TreeNode[], v: Pick<Props, 'colors' | 'blockOpacity'>, color?: string): object[] {
  const sorted = [...nodes].sort((a, b) => (b.value ?? 0) - (a.value ?? 0));
  return nodes.map((n, i) => {
    const c = color ?? (v.colors.length ? v.colors[i % v.colors.length] : '#3BA0FF');
    // a parent's own fill (its border colour) shows in the gaps between its children and behind its name: a tint
    if (n.children?.length) return { name: n.name, value: n.value, itemStyle: { borderColor: echarts.color.modifyAlpha(c, PARENT_TINT) }, children: paint(n.children, v, c) };
    const rank = nodes.length > 1 ? sorted.indexOf(n) / (nodes.length - 1) : 0;
    return { name: n.name, value: n.value, itemStyle: { color: echarts.color.modifyAlpha(c, v.blockOpacity * (1 - 0.4 * rank)), borderColor: 'transparent', borderRadius: 2 } };
  });
}

/** Blocks sized by value, nested under their parents (mapping props `name`, `value`, `parent`). */
const build: OptionBuilder<Props> = (v, data) => {
  const esc = echarts.format.encodeHTML;
  return {
    tooltip: {
      trigger: 'item',
      formatter: (p: { treePathInfo?: Array<{ name: string }>; value: number; marker: string }) =>
        `${(p.treePathInfo ?? []).slice(1).map((s) => esc(s.name)).join(' / ')}<br/>${p.marker}${p.value}`,
    },
    series: [
      {
        type: 'treemap',
        left: 0,
        right: 0,
        top: 0,
        bottom: 0,
        roam: false,
        nodeClick: false,
        breadcrumb: { show: false },
        leafDepth: null,
        label: { show: true, color: v.labelColor, fontSize: 12, formatter: v.showValue ? '{b}\n{c}' : '{b}', lineHeight: 16 },
        upperLabel: { show: v.showUpperLabel, height: 22, padding: [0, 6], color: v.labelColor, fontWeight: 'bold' },
        itemStyle: { gapWidth: v.gap, borderWidth: 0, borderColor: 'transparent' },
        // the top level draws no name band above itself (it has no parent block)
        levels: [{ upperLabel: { show: false } }],
        emphasis: { upperLabel: { color: v.labelColor }, label: { color: v.labelColor } },
        data: paint(buildTree(data), v),
      },
    ],
  };
};

export function TreemapChart({ viewProps, data, onItemClick }: WidgetKindProps<Props>) {
  return <ChartWidget widget="treemapChart" viewProps={viewProps} data={data} build={build} onItemClick={onItemClick} />;
}
