// 筛选组件 · 文本搜索 (issue 23 §2): what is typed goes to one screen variable once typing pauses
// (debounceMs), at once on Enter or when cleared.
import { useEffect, useRef, useState } from 'react';
import { Input } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { asText, FilterFrame, useFiltersLive, useFilterVariable } from '../filters/filter';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

export function FilterSearch({ viewProps: v }: WidgetKindProps<ViewPropsOf<'filterSearch'>>) {
  const live = useFiltersLive();
  const [value, write] = useFilterVariable(v.variable);
  const stored = live ? (asText(value) ?? '') : '';
  const [text, setText] = useState(stored);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cancel = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  // the variable changed elsewhere (a reset, the URL): the box shows it
  useEffect(() => {
    cancel();
    setText(stored);
  }, [stored]);
  useEffect(() => cancel, []);
  const commit = (t: string) => {
    cancel();
    write(t.trim() ? t.trim() : null);
  };
  return (
    <FilterFrame widget="filterSearch" look={v} live={live}>
      <Input
        aria-label={v.label || v.placeholder || '文本搜索'}
        allowClear
        prefix={<SearchOutlined />}
        placeholder={v.placeholder}
        maxLength={200}
        value={text}
        onChange={(e) => {
          const t = e.target.value;
          setText(t);
          cancel();
          if (!t) return commit('');
          timer.current = setTimeout(() => commit(t), v.debounceMs);
        }}
        onPressEnter={() => commit(text)}
      />
    </FilterFrame>
  );
}
