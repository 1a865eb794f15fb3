// Built-in dictionaries (schemas/dicts) as select options; a runtime dictionary service
// can be injected through the panel's services instead.
export interface DictItem {
  value: string | number;
  label: string;
}

const files = import.meta.glob('../../schemas/dicts/*.json', { eager: true, import: 'default' }) as Record<string, { type: string; items: DictItem[] }>;

const builtIn: Record<string, DictItem[]> = Object.fromEntries(Object.values(files).map((d) => [d.type, d.items]));

export function builtInDict(type: string): DictItem[] {
  return builtIn[type] ?? [];
}
