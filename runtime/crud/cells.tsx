import { Image } from 'antd';
import { dictTag, DictTags } from '../ui/DictTags';
import type { DictItem } from './services';
import type { ColumnDecl, Row } from './types';
import { formatDate, formatSize, MASK, versionLabel } from '../ui/format';
import { fill } from './template';
import { useCrudServices } from './services';
import { IMAGE_SIZE, ImagePlaceholder, RemoteImage } from './RemoteImage';
import { RowsCell } from './RowsCell';

type TagPart = NonNullable<ColumnDecl['tags']>[number];

/** The parts of a `tags` column shown for this row (each by its `when`). */
export function tagPartsFor(col: ColumnDecl, row: Row): TagPart[] {
  return (col.tags ?? []).filter((t) => !t.when || t.when.in.some((v) => v === row[t.when!.field]));
}

/** A `tags` cell: reads each part's dictionary itself (the table loads only the columns' own `dict`). */
function TagsCell({ parts, row }: { parts: TagPart[]; row: Row }) {
  const services = useCrudServices();
  // a fixed number of parts per declaration: the hooks run in the same order on every render
  const items = parts.map((p) => services.useDict(p.dict));
  // a part's `text` is a template over the row and the label (`{label} V{onlineVersion}`)
  return <DictTags parts={parts.map((p, i) => ({ field: p.field, items: items[i], text: p.text ? (label) => fill(p.text!, { ...row, label }) : undefined }))} row={row} />;
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
    // a picture a call answers with the session (a screen's thumbnail): fetched, not linked
    if (col.api) return <RemoteImage col={col} row={row} alt={alt} />;
    const w = col.imageWidth ?? IMAGE_SIZE;
    const h = col.imageHeight ?? IMAGE_SIZE;
    if (!srcs.length) return col.placeholder ? <ImagePlaceholder width={w} height={h} text={col.placeholder} /> : null;
    return (
      <Image.PreviewGroup>
        {srcs.map((src) => (
          <Image key={String(src)} src={String(src)} width={w} height={h} style={{ objectFit: 'cover', marginRight: 4 }} alt={alt} />
        ))}
      </Image.PreviewGroup>
    );
  }
  if (col.type === 'rows') return <RowsCell col={col} value={value} />;
  if (col.tags) {
    const parts = tagPartsFor(col, row);
    // keyed by the parts shown, so a row whose parts change gets a fresh cell (its hooks in a fixed order)
    if (parts.length) return <TagsCell key={parts.map((p) => p.field + p.dict).join('|')} parts={parts} row={row} />;
  }
  if (col.dict) return dictTag(dicts[col.dict], value);
  if (col.options) {
    // values shown by their labels (one value, or a list of them)
    const label = (v: unknown) => col.options!.find((o) => String(o.value) === String(v))?.label ?? stringOf(v);
    return Array.isArray(value) ? value.map(label).join('、') : value === null || value === undefined || value === '' ? '' : label(value);
  }
  if (col.template) return fill(col.template, row);
  // shown by another field's text (a related record's name), the value itself when there is none
  if (col.textField && value !== null && value !== undefined && value !== '') return stringOf(row[col.textField] ?? value);
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
