// The list's search bar: the declared text search, an optional date range, 搜索 and 重置.
import { Button, DatePicker, Input, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { PageDeclaration } from './types';

export type DayRange = [Dayjs | null, Dayjs | null] | null;

/** A picked date range as query values: from the first day's start to the last day's end. */
export function dayRange(range: DayRange): [string, string] | null {
  return range?.[0] && range[1] ? [`${range[0].format('YYYY-MM-DD')} 00:00:00`, `${range[1].format('YYYY-MM-DD')} 23:59:59`] : null;
}

interface Props {
  search: PageDeclaration['search'];
  text: string;
  onText: (text: string) => void;
  range: DayRange;
  onRange: (range: DayRange) => void;
  onSearch: () => void;
  onReset: () => void;
}

export function SearchBar({ search, text, onText, range, onRange, onSearch, onReset }: Props) {
  return (
    <Space wrap>
      <Input
        allowClear
        value={text}
        maxLength={search?.maxLength ?? 20}
        placeholder={search?.placeholder ?? '请输入名称'}
        onChange={(e) => onText(e.target.value)}
        onPressEnter={onSearch}
        style={{ width: 240 }}
        data-testid="crud-search"
      />
      {search?.dateRange && (
        <DatePicker.RangePicker
          aria-label={search.dateRange.label ?? '日期范围'}
          value={range}
          onChange={(v) => onRange(v as DayRange)}
          placeholder={[`${search.dateRange.label ?? ''}开始日期`, '结束日期']}
        />
      )}
      <Button type="primary" icon={<SearchOutlined />} onClick={onSearch}>搜索</Button>
      <Button icon={<ReloadOutlined />} onClick={onReset}>重置</Button>
    </Space>
  );
}
