import { Tag } from 'antd';
import type { DictItem } from '../core/dicts';

// Element-style dictStyle names → antd Tag colours.
const TAG_COLORS: Record<string, string> = {
  primary: 'blue', success: 'success', info: 'default', warning: 'warning', danger: 'error', error: 'error', processing: 'processing', default: 'default',
};

/** A dictionary entry as a tag needs it (the dictionaries of runtime/core and of the CRUD renderer's services). */
export type TagItem = Pick<DictItem, 'value' | 'label' | 'dictStyle'>;

/** The value's dictionary tag; `text` words it from the label (e.g. `已上线 V1`). */
export function dictTag(items: TagItem[] | undefined, value: unknown, text?: (label: string) => string) {
  if (value === null || value === undefined || value === '') return null;
  // dictionary values may be numbers while rows carry strings (or the reverse)
  const item = items?.find((i) => String(i.value) === String(value));
  if (!item) return <span>{text ? text(String(value)) : String(value)}</span>;
  return <Tag color={TAG_COLORS[item.dictStyle ?? 'default'] ?? item.dictStyle}>{text ? text(item.label) : item.label}</Tag>;
}

/** One tag of a DictTags row: the field whose value it shows, its dictionary, how the label is worded. */
export interface TagPartOf {
  field: string;
  items: TagItem[] | undefined;
  text?: (label: string) => string;
}

/** Dictionary tags side by side, separated by ·: 已上线 V1 · V2 待审批. */
export function DictTags({ parts, row }: { parts: TagPartOf[]; row: Record<string, unknown> }) {
  return (
    <span className="dict-tags" style={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', rowGap: 2 }}>
      {parts.map((p, i) => (
        <span key={i} style={{ display: 'inline-flex', alignItems: 'center' }}>
          {i > 0 && <span style={{ margin: '0 6px 0 -2px', color: 'rgba(0,0,0,0.45)' }}>·</span>}
          {dictTag(p.items, row[p.field], p.text)}
        </span>
      ))}
    </span>
  );
}
