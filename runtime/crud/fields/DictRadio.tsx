import { Radio } from 'antd';
import type { RadioGroupProps } from 'antd';
import { useCrudServices } from '../services';

/** Radio buttons from a dictionary (`x-dict` with x-component Radio.Group). */
export function DictRadio({ dict, ...rest }: RadioGroupProps & { dict?: string }) {
  const items = useCrudServices().useDict(dict);
  return <Radio.Group {...rest} options={items.map((i) => ({ value: i.value, label: i.label }))} />;
}
