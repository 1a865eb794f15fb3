// A choice field's options: typed in (viewProps.options) or a built-in dictionary (viewProps.dict). Only the
// dictionaries shipped in schemas/dicts are offered, so a form filled in without signing in needs no call,
// and the server checks the answer against the very same entries.
type DictFile = { type: string; items: Array<{ value: string | number; label: string }> };
const files = import.meta.glob('../../schemas/dicts/*.json', { eager: true, import: 'default' }) as Record<string, DictFile>;
const DICTS: Record<string, DictFile['items']> = Object.fromEntries(Object.values(files).map((f) => [f.type, f.items]));
/** The same dictionaries by type, as the shared field rules take them (common/fields.ts). */
export const DICT_TABLE: Record<string, DictFile> = Object.fromEntries(Object.values(files).map((f) => [f.type, f]));

export interface Option {
  label: string;
  value: string;
}

export function optionsOf(v: { options?: Option[]; dict?: string }): Option[] {
  if (v.dict && Object.hasOwn(DICTS, v.dict)) return DICTS[v.dict].map((i) => ({ label: i.label, value: String(i.value) }));
  return (v.options ?? []).map((o) => ({ label: o.label, value: o.value }));
}
