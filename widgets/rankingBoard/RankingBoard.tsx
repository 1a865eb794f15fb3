import type { WidgetKindProps } from '../types';
import { clickable, rowItem } from '../data/click';
import type { ViewPropsOf } from '../viewPropTypes';

/** 排行榜: the top N rows by value, each a rank, a name, a value with its unit and a bar relative to the largest. */
export function RankingBoard({ viewProps: v, data, onItemClick }: WidgetKindProps<ViewPropsOf<'rankingBoard'>>) {
  const rows = data.rows.map((r, at) => ({ name: r.name == null ? '' : String(r.name), value: Number(r.value) || 0, at }));
  if (v.sort === 'desc') rows.sort((a, b) => b.value - a.value);
  else if (v.sort === 'asc') rows.sort((a, b) => a.value - b.value);
  const top = rows.slice(0, v.topN);
  const largest = Math.max(...top.map((r) => Math.abs(r.value)), 0);
  if (top.length === 0) {
    return (
      <div data-widget="rankingBoard" style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', width: '100%', height: '100%', color: v.nameColor, fontSize: v.fontSize }}>
        暂无数据
      </div>
    );
  }
  return (
    <ol data-widget="rankingBoard" style={{ listStyle: 'none', margin: 0, padding: 0, width: '100%', height: '100%', display: 'flex', flexDirection: 'column', justifyContent: 'space-around', fontSize: v.fontSize, overflow: 'hidden' }}>
      {top.map((r, i) => (
        <li key={i} {...clickable(onItemClick && (() => onItemClick(rowItem(data, r.at))), true)} style={{ display: 'flex', flexDirection: 'column', gap: 4, minHeight: 0 }}>
          <div style={{ display: 'flex', alignItems: 'baseline', gap: 8, whiteSpace: 'nowrap' }}>
            <span style={{ color: i < 3 ? v.topRankColor : v.rankColor, fontWeight: 700, fontStyle: 'italic', minWidth: '2.4em' }}>NO.{i + 1}</span>
            <span style={{ color: v.nameColor, flex: 1, overflow: 'hidden', textOverflow: 'ellipsis' }}>{r.name}</span>
            <span style={{ color: v.valueColor, fontVariantNumeric: 'tabular-nums' }}>
              {r.value.toLocaleString('en-US')}
              {v.unit && <span style={{ marginLeft: 2 }}>{v.unit}</span>}
            </span>
          </div>
          <div style={{ height: v.barHeight, background: v.trackColor, borderRadius: v.barHeight / 2, overflow: 'hidden' }}>
            <div style={{ width: `${largest > 0 ? (Math.abs(r.value) / largest) * 100 : 0}%`, height: '100%', borderRadius: v.barHeight / 2, background: `linear-gradient(90deg, ${v.barColor}, ${v.barColorEnd})` }} />
          </div>
        </li>
      ))}
    </ol>
  );
}
