import { Select } from 'antd';
import type { SelectProps } from 'antd';
import { useCrudServices } from '../services';

/** A Select whose options are a dictionary (`x-dict` in the declaration). */
export function DictSelect({ dict, ...rest }: SelectProps & { dict?: string }) {
  const items = useCrudServices().useDict(dict);
  return <Select allowClear placeholder="请选择" {...rest} options={items.map((i) => ({ value: i.value, label: i.label }))} />;
}
