// The CRUD renderer's parts with an in-memory adapter (no network): rows are made up from
// each declaration's columns so every cell format shows.
import { CrudServicesContext, CrudView, builtinPages, type CrudServices, type DictItem } from '../../runtime/crud';
import { builtInDict } from '../../designer/panel/dicts';
import { resolveImageUrl } from '../../widgets/carousel/assets';

type Column = { field?: string; dict?: string; format?: string; type?: string };

function sampleValue(c: Column, i: number): unknown {
  if (c.type === 'image') return resolveImageUrl(`builtin:carousel/slide-${(i % 4) + 1}.svg`);
  if (c.dict) return builtInDict(c.dict)[i % Math.max(builtInDict(c.dict).length, 1)]?.value ?? '';
  switch (c.format) {
    case 'yesno':
      return i % 2 ? 'N' : 'Y';
    case 'datetime':
    case 'date':
      return `2024-06-0${(i % 9) + 1} 10:${String(10 + i).padStart(2, '0')}:00`;
    case 'password':
      return '******';
    case 'filesize':
      return 1024 * (i + 1) * 37;
    case 'version':
      return i % 3 ? i : null;
    default:
      return `${c.field}_${i + 1}`;
  }
}

function services(pageId: string): CrudServices {
  const page = builtinPages[pageId];
  const columns = page.columns as Column[];
  const records = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, ...Object.fromEntries(columns.filter((c) => c.field).map((c) => [c.field!, sampleValue(c, i)])) }));
  return {
    async request(_method, path, opts) {
      if (path === page.api?.search.split(' ')[1]) {
        const q = (opts?.body ?? opts?.params ?? {}) as { pageNum?: number; pageSize?: number };
        const size = q.pageSize ?? 10;
        const from = ((q.pageNum ?? 1) - 1) * size;
        return { records: records.slice(from, from + size), total: records.length } as never;
      }
      return records[0] as never;
    },
    async upload() {
      return true as never;
    },
    useDict: (t) => (t ? (builtInDict(t) as DictItem[]) : []),
    hasPermission: () => true,
  };
}

export function CrudStory({ pageId }: { pageId: string }) {
  const page = builtinPages[pageId];
  if (!page) return <div>未找到页面声明：{pageId}</div>;
  return (
    <div style={{ background: '#fff', padding: 16 }}>
      <CrudServicesContext.Provider value={services(pageId)}>
        <CrudView page={page} />
      </CrudServicesContext.Provider>
    </div>
  );
}

export const crudPageIds = Object.keys(builtinPages);
