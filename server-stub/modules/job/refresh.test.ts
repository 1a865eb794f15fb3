// Issue 39 item 2, 刷新数据集: a job that retires a dataset's cached answers on every instance and asks its charts'
// questions again as the owner, so the first viewer after meets a fresh answer from the cache. Over real HTTP on
// SQLite: a chart's answer cached for an hour goes on showing the old rows after the table changed, until the job
// runs; after it, the same question is answered from the cache with the new rows.
import Database from 'better-sqlite3';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverForSuite } from '../../testing/server.js';
import { GOODS_SQL, sqliteFixture } from '../../testing/sqlite.js';
import { waitFor } from '../../testing/wait.js';
import { RUN } from './index.js';

describe('刷新数据集', () => {
  const s = serverForSuite({ env: { JOB_POLL_MS: '150' } });
  let datasetId = 0;
  let query: any;
  const must = async (p: string, body?: unknown) => {
    const r = await s.request<any>(body === undefined ? 'GET' : 'POST', p, body);
    if (r.body.status !== 0) throw new Error(`${p}: ${r.body.msg}`);
    return r.body.data;
  };
  beforeAll(async () => {
    const dsId = await sqliteFixture(s, 'shop.db', GOODS_SQL, 'shop');
    const fields = await must('/api/dataset/fields', { kind: 'table', dsId, definition: { table: { table: 'goods' } } });
    await must('/api/dataset/info/save', { name: '商品', kind: 'table', dsId, definition: { table: { table: 'goods' } }, fields, cacheTtl: 3600 });
    datasetId = (await s.app.ctx.db.selectFrom('dataset').select('id').where('name', '=', '商品').executeTakeFirstOrThrow()).id;
    const screen = await must('/api/datav/screen/info/save', { pageName: '商品大屏' });
    const bar = await must('/api/datav/screen/widget/add', { pageId: screen.id, widgetName: 'barChart' });
    const ds = bar.widgetProps.datasourceProps;
    bar.widgetProps.datasourceProps = {
      ...ds,
      datasourceType: 'DATASET',
      dataConfig: { ...ds.dataConfig, dataset: { datasetId } },
      dataMapping: ds.dataMapping.map((m: any) => (m.slot === 'measure' ? { ...m, datasetField: 'price', agg: 'sum' } : m.slot === 'dimension' ? { ...m, datasetField: 'name' } : m)),
    };
    await must('/api/datav/screen/widget/update', { pageId: screen.id, widgets: [bar] });
    query = { datasetId, dimensions: [{ field: 'name', dateGroup: null }], measures: [{ field: 'price', agg: 'sum' }], filters: [], sort: [] };
  });

  const ask = async () => (await must('/api/dataset/query', { queries: [query] }))[0] as { rows: Array<Record<string, unknown>>; cached: boolean };

  it('refuses a dataset that is not there; offers the datasets by name', async () => {
    const base = { jobName: '刷新', kind: 'dataset', cron: '30 7 * * *', tz: 'Asia/Shanghai', status: 0, overlap: 0, retries: 0, timeoutSeconds: 120 };
    expect((await s.request('POST', '/api/job/job/save', { ...base, target: '999999' })).body.msg).toBe('数据集不存在');
    expect((await s.request('POST', '/api/job/job/save', { ...base, target: "1 or 1=1" })).body.msg).toBe('请选择要刷新的数据集');
    expect(await must('/api/job/job/targets?kind=dataset')).toContainEqual({ value: String(datasetId), label: '商品' });
  });

  it('after the table changed, the cached answer stays old until the job runs; then the new rows come from the cache', async () => {
    const first = await ask();
    expect(first.cached).toBe(false);
    expect((await ask()).cached).toBe(true);
    const db = new Database(path.join(s.dataDir, 'sqlite', 'shop.db'));
    db.exec("insert into goods(name, price) values ('kiwi', 11)");
    db.close();
    const stale = await ask();
    expect(stale.cached).toBe(true);
    expect(stale.rows.map((r) => r.name)).not.toContain('kiwi');

    const id = await must('/api/job/job/save', { jobName: '晨会前刷新', kind: 'dataset', target: String(datasetId), cron: '30 7 * * *', tz: 'Asia/Shanghai', status: 0, overlap: 0, retries: 0, timeoutSeconds: 120 });
    await must(`/api/job/job/run?id=${id}`, {});
    const [run] = await waitFor(
      async () => (await must('/api/job/log/list', { pageNum: 1, pageSize: 5, jobId: id })).records as any[],
      (r) => r.length > 0 && r[0].status >= RUN.ok,
    );
    expect(run.status, run.message).toBe(RUN.ok);
    expect(run.message).toBe('刷新数据集【商品】：旧的缓存已作废，预先计算了 1 个图表查询');
    const fresh = await ask();
    expect(fresh.cached).toBe(true);
    expect(fresh.rows.map((r) => r.name)).toContain('kiwi');
  });
});
