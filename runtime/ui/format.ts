import dayjs from 'dayjs';

export const MASK = '******';

export function formatDate(v: unknown, withTime: boolean): string {
  if (v === null || v === undefined || v === '') return '';
  const d = dayjs(v as string | number);
  return d.isValid() ? d.format(withTime ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD') : String(v);
}

export function formatSize(v: unknown): string {
  const n = Number(v);
  if (!Number.isFinite(n)) return '';
  const units = ['B', 'KB', 'MB', 'GB'];
  let i = 0;
  let x = n;
  while (x >= 1024 && i < units.length - 1) { x /= 1024; i++; }
  return `${i === 0 ? x : x.toFixed(1)} ${units[i]}`;
}

/** A released version number as V{n}; none yet is 未定版 (spec part 2: API list, §4). */
export function versionLabel(v: unknown): string {
  return v === null || v === undefined || v === '' || v === 0 ? '未定版' : `V${String(v)}`;
}
