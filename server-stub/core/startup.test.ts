// The real entry point: a broken declaration refuses the start with its path and JSON pointer;
// each request lands in the log file of the module that served it.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../testing/server.js';

const repo = path.resolve(import.meta.dirname, '../..');

/** Starts the server on a copy of schemas/ and of the widget kinds' declarations (widgets/<kind>/<kind>.widget.json). */
function startWith(mutate: (schemasDir: string, root: string) => void) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'schemas-root-'));
  cpSync(path.join(repo, 'schemas'), path.join(root, 'schemas'), { recursive: true });
  for (const kind of readdirSync(path.join(repo, 'widgets'))) {
    const file = path.join(repo, 'widgets', kind, `${kind}.widget.json`);
    if (!existsSync(file)) continue;
    mkdirSync(path.join(root, 'widgets', kind), { recursive: true });
    cpSync(file, path.join(root, 'widgets', kind, `${kind}.widget.json`));
  }
  mutate(path.join(root, 'schemas'), root);
  const data = mkdtempSync(path.join(os.tmpdir(), 'data-'));
  const r = spawnSync('npx', ['tsx', path.join(repo, 'server-stub/main.ts')], {
    env: { ...process.env, SCHEMAS_ROOT: root, DATA_DIR: data, PORT: '0', ADMIN_PASSWORD: 'x' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  rmSync(root, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
  return r;
}

describe('start-up checks of schemas/', () => {
  it('refuses to start on a declaration that breaks its meta-schema, naming file and pointer', () => {
    const r = startWith((dir) => {
      const file = path.join(dir, 'dicts', 'YES_OR_NO.json');
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      doc.items[1].label = 42;
      writeFileSync(file, JSON.stringify(doc));
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('声明文件有误，拒绝启动');
    expect(r.stderr).toContain(path.join('schemas', 'dicts', 'YES_OR_NO.json'));
    expect(r.stderr).toContain('/items/1/label');
  });

  it('refuses a widget kind whose declaration breaks its meta-schema, naming the file in its folder and the pointer', () => {
    const r = startWith((_dir, root) => {
      const file = path.join(root, 'widgets', 'scrollTable', 'scrollTable.widget.json');
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      doc.catalogue.maxUse = -1;
      writeFileSync(file, JSON.stringify(doc));
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('声明文件有误，拒绝启动');
    expect(r.stderr).toContain(`${path.join('widgets', 'scrollTable', 'scrollTable.widget.json')}: /catalogue/maxUse`);
  });

  it('refuses a file that names no meta-schema, and one that is not JSON', () => {
    const noMeta = startWith((dir) => writeFileSync(path.join(dir, 'dicts', 'EXTRA.json'), JSON.stringify({ type: 'EXTRA' })));
    expect(noMeta.status).toBe(1);
    expect(noMeta.stderr).toContain('/$schema');
    const notJson = startWith((dir) => writeFileSync(path.join(dir, 'menus', 'broken.json'), '{ "moduleType": '));
    expect(notJson.status).toBe(1);
    expect(notJson.stderr).toContain(path.join('schemas', 'menus', 'broken.json'));
  });
});

describe('request logs', () => {
  it('writes each request to the log of the module that served it, without secrets', async () => {
    const s = await startTestServer();
    try {
      await s.request('POST', '/api/dict/selectMapData', ['YES_OR_NO']);
      await s.request('GET', '/api/menu/routes/get');
      const read = (n: string) => {
        try {
          return readFileSync(path.join(s.dataDir, 'logs', `${n}.log`), 'utf8');
        } catch {
          return '';
        }
      };
      // the log files are written asynchronously: on a loaded machine a line may land a moment after the answer
      await expect.poll(() => read('auth'), { timeout: 10_000 }).toContain('"route":"/api/uams/login"');
      expect(read('auth')).not.toContain('Test@12345');
      await expect.poll(() => read('admin'), { timeout: 10_000 }).toContain('"route":"/api/dict/selectMapData"');
      await expect.poll(() => read('admin'), { timeout: 10_000 }).toContain('"route":"/api/menu/routes/get"');
      expect(read('platform')).not.toContain('/api/uams/login');
    } finally {
      await s.close();
    }
  });
});

describe('first start', () => {
  it('seeds a working demo data source and variables once', async () => {
    const s = await startTestServer({ env: { DEMO_DATA: 'on' } });
    try {
      const list = await s.request<{ records: { id: number; dsName: string }[] }>('POST', '/api/gemini/datasource/search', { pageNum: 1, pageSize: 10 });
      const demo = list.body.data.records.find((r) => r.dsName === 'demo_sqlite')!;
      expect(demo).toBeDefined();
      const test = await s.request<boolean>('GET', `/api/gemini/datasource/test?id=${demo.id}`);
      expect(test.body.data).toBe(true);
      const vars = await s.request<{ total: number }>('POST', '/api/sys/var/searchList', { pageNum: 1, pageSize: 10 });
      expect(vars.body.data.total).toBe(3);
    } finally {
      await s.close();
    }
  });
});
