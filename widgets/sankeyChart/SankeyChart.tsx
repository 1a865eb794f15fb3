import { ChartWidget, type OptionBuilder } from '../charts/ChartWidget';
import { label, num } from '../charts/options';
import { flowClickItem } from '../data/click';
import type { MappedData } from '../types';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

type Props = ViewPropsOf<'sankeyChart'>;

export interface Flow {
  source: string;
  target: string;
  value: number;
}

/**
 * Nodes (every name in `source` or `target`, in order of appearance) and links from the mapped rows: rows of the
 * same pair add up; a row from a node to itself, without a positive value, or closing a loop (a sankey flows one
 * way) is left out.
 */
export function buildFlows(data: MappedData): { nodes: string[]; links: Flow[] } {
  const links: Flow[] = [];
  const out = new Map<string, Set<string>>();
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length) {
      const n = stack.pop()!;
      if (n === to) return true;
      if (seen.has(n)) continue;
      seen.add(n);
      stack.push(...(out.get(n) ?? []));
    }
    return false;
  };
  for (const r of data.rows) {
    const source = label(r.source);
    const target = label(r.target);
    const value = num(r.value);
    if (!source || !target || source === target || !(value > 0)) continue;
    const same = links.find((l) => l.source === source && l.target === target);
    if (same) same.value += value;
    else if (!reaches(target, source)) {
      links.push({ source, target, value });
      if (!out.has(source)) out.set(source, new Set());
      out.get(source)!.add(target);
    }
  }
  const nodes = [...new Set(links.flatMap((l) => [l.source, l.target]))];
  return { nodes, links };
}

/** About how wide a label is drawn (12 px text): a CJK character a full em, others a little over half. */
const textWidth = (s: string) => [...s].reduce((w, ch) => w + (ch.charCodeAt(0) > 255 ? 12 : 7), 0);

/** Flows between named nodes (mapping props `source`, `target`, `value`), each link shaded from its source's colour to its target's. */
const build: OptionBuilder<Props> = (v, data) => {
  const { nodes, links } = buildFlows(data);
  const horizontal = v.orient === 'horizontal';
  // the last column's labels sit beyond it: leave them room
  const sinks = nodes.filter((n) => !links.some((l) => l.source === n));
  const room = v.showLabel ? Math.max(0, ...sinks.map(textWidth)) + 10 : 0;
  return {
    color: v.colors,
    tooltip: { trigger: 'item' },
    series: [
      {
        type: 'sankey',
        orient: v.orient,
        left: 8,
        top: 8,
        right: horizontal ? 8 + room : 8,
        bottom: horizontal ? 8 : 8 + (v.showLabel ? 18 : 0),
        nodeWidth: v.nodeWidth,
        nodeGap: v.nodeGap,
        nodeAlign: 'justify',
        draggable: false,
        itemStyle: { borderWidth: 0 },
        lineStyle: { color: 'gradient', opacity: v.linkOpacity, curveness: 0.5 },
        label: { show: v.showLabel, color: v.labelColor, fontSize: 12, position: horizontal ? 'right' : 'bottom' },
        emphasis: { focus: 'adjacency', lineStyle: { opacity: Math.min(1, v.linkOpacity + 0.35) } },
        data: nodes.map((name) => ({ name })),
        links,
      },
    ],
  };
};

export function SankeyChart({ viewProps, data, onItemClick }: WidgetKindProps<Props>) {
  return <ChartWidget widget="sankeyChart" viewProps={viewProps} data={data} build={build} onItemClick={onItemClick} readClick={flowClickItem} />;
}
