// bench/workspace/workspace.ts: workspace export and import (issue 37 item 3) at the size, over HTTP
// between two compiled servers on fresh SQLite stores (npx tsx bench/workspace/workspace.ts; README.md beside it).
// The source deployment holds 200 screens of 30 widgets, 100 pages and 50 API designs (BENCH_SCREENS, BENCH_PAGES,
// BENCH_APIS); everything is exported in one file, which the target previews, checks (dry run) and imports in one
// transaction, then previews again (everything unchanged). Each step is timed once, in this run.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startServer, type Server } from '../dataset/setup.js';

const SCREENS = Number(process.env.BENCH_SCREENS ?? 200);
const WIDGETS = Number(process.env.BENCH_WIDGETS ?? 30);
const PAGES = Number(process.env.BENCH_PAGES ?? 100);
const APIS = Number(process.env.BENCH_APIS ?? 50);
const D = '/api/datav/screen';

const timed = async <T>(what: () => Promise<T>): Promise<[T, number]> => {
  const t0 = performance.now();
  const r = await what();
  return [r, performance.now() - t0];
};
const source = async (s: Server, name: string) => s.call<number>('POST', '/api/gemini/datasource/info/save', { dsName: name, dbType: 'sqlite', dbName: `${name}.db` });

const [src, dst] = await Promise.all([startServer(), startServer()]);
try {
  await source(src, 'shop');
  const target = await source(dst, 'shop_prod');
  // the source deployment's work
  const t0 = performance.now();
  const one = await (async () => {
    const p = await src.call<{ id: number }>('POST', `${D}/info/save`, { pageName: '模板' });
    return src.call<any>('POST', `${D}/widget/add`, { pageId: p.id, widgetName: 'barChart' });
  })();
  for (let i = 0; i < SCREENS; i++) {
    const page = await src.call<{ id: number }>('POST', `${D}/info/save`, { pageName: `大屏${i + 1}` });
    const widgets = Array.from({ length: WIDGETS }, (_, k) => ({ ...structuredClone(one), id: randomUUID(), pageId: undefined, widgetProps: { ...one.widgetProps, viewProps: { ...one.widgetProps.viewProps, left: (k % 10) * 190, top: Math.floor(k / 10) * 110, width: 180, height: 100, title: `图表${k + 1}` } } }));
    await src.call('POST', `${D}/widget/update`, { pageId: page.id, widgets });
  }
  for (let i = 0; i < PAGES; i++) {
    await src.call('POST', '/api/lowcode/page/save', {
      pageKey: `bench_page_${i}`,
      title: `页面${i + 1}`,
      published: true,
      roles: ['sys_admin'],
      declaration: { title: `页面${i + 1}`, columns: [{ title: '名称', field: 'name' }, { title: '状态', field: 'status', dict: 'SYS_NORMAL_DISABLE' }], dialog: { schema: { type: 'object', properties: { name: { type: 'string', title: '名称' } } } } },
    });
  }
  const group = await src.call<number>('POST', '/api/gemini/api/group/save', { parentId: 0, name: '基准' });
  for (let i = 0; i < APIS; i++) {
    const apiId = await src.call<number>('POST', '/api/gemini/api/design/info/save', { groupId: group, apiName: `bench_api_${i}`, apiComment: `接口${i + 1}` });
    await src.call('POST', '/api/gemini/api/config/save', { apiId, dsName: 'shop', script: 'select name, price from goods where price >= :minPrice order by id', reqParamList: [{ paramName: 'minPrice', paramType: 'number', required: 0, paramValue: '0' }] });
  }
  console.log(`source deployment built in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${SCREENS} screens × ${WIDGETS} widgets, ${PAGES} pages, ${APIS} APIs`);

  const kinds = await src.call<Array<{ kind: string; items: Array<{ key: string }> }>>('GET', '/api/workspace/items');
  const items = kinds.filter((k) => ['screen', 'page', 'api'].includes(k.kind)).flatMap((k) => k.items.filter((i) => k.kind !== 'screen' || i.key !== String(one.pageId)).map((i) => ({ kind: k.kind, key: i.key })));
  const [text, exportMs] = await timed(async () => (await fetch(`${src.base}/api/workspace/export`, { method: 'POST', headers: { ...src.auth, 'content-type': 'application/json' }, body: JSON.stringify({ items }) })).text());
  const file = JSON.parse(text) as { items: unknown[] };
  const mapping = { shop: target };
  const [preview, previewMs] = await timed(() => dst.call<{ items: Array<{ status: string }> }>('POST', '/api/workspace/preview', { file: text, dataSources: mapping }));
  const [, dryMs] = await timed(() => dst.call('POST', '/api/workspace/import', { file: text, dataSources: mapping, dryRun: true }));
  const [done, importMs] = await timed(() => dst.call<{ created: number }>('POST', '/api/workspace/import', { file: text, dataSources: mapping }));
  const [again, againMs] = await timed(() => dst.call<{ items: Array<{ status: string }> }>('POST', '/api/workspace/preview', { file: text, dataSources: mapping }));
  const same = again.items.filter((i) => i.status === 'same').length;
  console.log(`items exported: ${file.items.length} (${preview.items.filter((i) => i.status === 'new').length} new at the target)`);
  console.log(`export: ${exportMs.toFixed(0)} ms, file ${(Buffer.byteLength(text) / 1024 / 1024).toFixed(2)} MB`);
  console.log(`preview: ${previewMs.toFixed(0)} ms; dry run: ${dryMs.toFixed(0)} ms; import (one transaction): ${importMs.toFixed(0)} ms, ${done.created} created`);
  console.log(`preview after the import: ${againMs.toFixed(0)} ms, ${same} of ${again.items.length} unchanged`);
} finally {
  await Promise.all([src.stop(), dst.stop()]);
}
