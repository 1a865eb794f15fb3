import { Image, Tag } from 'antd';
import type { DictItem } from './services';
import type { ColumnDecl, Row } from './types';
import { formatDate, formatSize, MASK, versionLabel } from './format';
import { fill } from './template';

// Element-style dictStyle names → antd Tag colours.
const TAG_COLORS: Record<string, string> = {
  primary: 'blue', success: 'success', info: 'default', warning: 'warning', danger: 'error', error: 'error', processing: 'processing', default: 'default',
};

export function dictTag(items: DictItem[] | undefined, value: unknown) {
  if (value === null || value === undefined || value === '') return null;
  // dictionary values may be numbers while rows carry strings (or the reverse)
  const item = items?.find((i) => String(i.value) === String(value));
  if (!item) return <span>{String(value)}</span>;
  return <Tag color={TAG_COLORS[item.dictStyle ?? 'default'] ?? item.dictStyle}>{item.label}</Tag>;
}

const YES_NO: DictItem[] = [
  { value: 1, label: '是', dictStyle: 'success' },
  { value: 0, label: '否', dictStyle: 'default' },
];

/** Renders one cell from the column declaration; dictionaries are resolved once per table. */
export function renderCell(col: ColumnDecl, value: unknown, row: Row, dicts: Record<string, DictItem[]>): React.ReactNode {
  if (col.type === 'image') {
    // one address, or a list of them (an image field of a form holds several)
    const srcs = (Array.isArray(value) ? value : value ? [value] : []).filter((v) => typeof v === 'string' && v);
    const alt = String((col.altField ? row[col.altField] : undefined) ?? col.title);
    return srcs.length ? (
      <Image.PreviewGroup>
        {srcs.map((src) => (
          <Image key={String(src)} src={String(src)} width={40} height={40} style={{ objectFit: 'cover', marginRight: 4 }} alt={alt} />
        ))}
      </Image.PreviewGroup>
    ) : null;
  }
  if (col.dict) return dictTag(dicts[col.dict], value);
  if (col.options) {
    // values shown by their labels (one value, or a list of them)
    const label = (v: unknown) => col.options!.find((o) => String(o.value) === String(v))?.label ?? stringOf(v);
    return Array.isArray(value) ? value.map(label).join('、') : value === null || value === undefined || value === '' ? '' : label(value);
  }
  if (col.template) return fill(col.template, row);
  switch (col.format) {
    case 'yesno':
      return dictTag(dicts.YES_OR_NO?.length ? dicts.YES_OR_NO : YES_NO, typeof value === 'boolean' ? Number(value) : value);
    case 'password':
      return value === null || value === undefined || value === '' ? '' : MASK;
    case 'datetime':
      return formatDate(value, true);
    case 'date':
      return formatDate(value, false);
    case 'filesize':
      return formatSize(value);
    case 'version':
      return versionLabel(value);
    default:
      if (value === null || value === undefined) return '';
      if (typeof value === 'boolean') return value ? '是' : '否';
      // a list of plain values (choices, a date range) reads as text
      if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) return value.map((v) => stringOf(v)).join('、');
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

function stringOf(v: unknown): string {
  return v === null || v === undefined ? '' : String(v);
}
