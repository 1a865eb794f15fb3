// Dictionaries: POST /api/dict/selectMapData through SWR; the built-in schemas/dicts/*.json
// answer when that call fails (or leaves a type out).
import useSWR from 'swr';
import { post } from './request';

export interface DictItem {
  value: string | number;
  label: string;
  dictStyle?: string;
  children?: DictItem[];
}

export type DictMap = Record<string, DictItem[]>;

interface DictFile {
  type: string;
  items: DictItem[];
}

const files = import.meta.glob<DictFile>('../../schemas/dicts/*.json', { eager: true, import: 'default' });

/** The built-in dictionaries by type. */
export const builtinDicts: DictMap = Object.fromEntries(Object.values(files).map((f) => [f.type, f.items]));

/** Fetches the types; falls back to the built-in ones per type when the call fails or omits a type. */
export async function fetchDicts(types: string[]): Promise<DictMap> {
  let remote: DictMap = {};
  try {
    remote = (await post<DictMap>('/dict/selectMapData', types, { silent: true })) ?? {};
  } catch {
    remote = {};
  }
  return Object.fromEntries(types.map((type) => [type, remote[type]?.length ? remote[type] : (builtinDicts[type] ?? [])]));
}

export interface DictsResult {
  dicts: DictMap;
  loading: boolean;
}

export function useDicts(types: string[]): DictsResult {
  const unique = [...new Set(types)].sort();
  const { data, isLoading } = useSWR(unique.length ? ['dicts', ...unique] : null, () => fetchDicts(unique), {
    revalidateOnFocus: false,
    dedupingInterval: 60_000,
  });
  // Until the answer arrives, the built-in entries keep labels readable.
  const dicts = data ?? Object.fromEntries(unique.map((t) => [t, builtinDicts[t] ?? []]));
  return { dicts, loading: isLoading };
}

export function useDict(type: string): DictItem[] {
  return useDicts([type]).dicts[type] ?? [];
}

function findItem(items: DictItem[], value: string): DictItem | undefined {
  for (const item of items) {
    if (String(item.value) === value) return item;
    const child = item.children && findItem(item.children, value);
    if (child) return child;
  }
  return undefined;
}

/** The label of `value` (searching tree children). Arrays and "a|b" strings give "labelA|labelB". */
export function dictLabel(items: DictItem[] | undefined, value: unknown, separator = '|'): string {
  if (value === null || value === undefined || value === '') return '';
  const list = items ?? [];
  const one = (v: unknown) => findItem(list, String(v))?.label ?? String(v);
  if (Array.isArray(value)) return value.map(one).join(separator);
  const str = String(value);
  if (!findItem(list, str) && str.includes(separator)) return str.split(separator).map(one).join(separator);
  return one(str);
}

/** The entry itself (for dictStyle tags). */
export function dictItem(items: DictItem[] | undefined, value: unknown): DictItem | undefined {
  return value === null || value === undefined ? undefined : findItem(items ?? [], String(value));
}
