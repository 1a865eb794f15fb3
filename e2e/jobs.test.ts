// 定时任务 clicked through in Chromium (issue 39 items 1–2). On the suite's server: a job added through the declared
// page's dialog (its cron said in Chinese with the next five times as it is typed, a bad one refused with the
// reason), 立即运行, and its run in 运行记录; at 390 px too. On two instances of one deployment (PostgreSQL +
// Redis, started here as processes): a job due in the current minute runs once; the instance running a long job is
// killed (SIGKILL) and the other runs it again, which the run log says.
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { SMTPServer } from 'smtp-server';
import ExcelJS from 'exceljs';
import { attachmentsOf, startSmtp, subjectOf } from '../server-stub/testing/listeners';
import pg from 'pg';
import { inject } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';
import { confirmBox, must, opened, signIn, toast as waitToast } from './lib/calls';
import { ADMIN_PASSWORD, startDeployment } from './global-setup';
import { salesSource } from './lib/screen';
import { encryptFor } from '../server-stub/testing/server';

const run = Date.now().toString(36);
const PG_URL = process.env.PG_URL;
const REDIS_URL = process.env.REDIS_URL;
const toast = (page: Page, text: string) => waitToast(page, text, { prefix: 'jobs' });
const dialog = (page: Page) => page.locator('.ant-modal:visible').last();
// a sub-list opens in a drawer, or in a dialog on a narrow screen
const drawer = (page: Page) => page.locator('.ant-drawer:visible, .ant-modal:visible').last();
const btn = (scope: Page | Locator, label: string) => scope.getByRole('button', { name: new RegExp(`(^|\\s)${label.split('').join('\\s?')}$`) });

/** A call to one instance (throws with the server's message when refused). */
async function at(base: string, path: string, body?: unknown, token?: string): Promise<any> {
  const res = await fetch(base + path, { method: body === undefined ? 'GET' : 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const e = await res.json();
  if (e.status !== 0) throw new Error(`${path}: ${e.msg}`);
  return e.data;
}

describeBrowser('定时任务', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  for (const [width, height] of [
    [1600, 900],
    [390, 844],
  ] as const) {
    it(`adds a job through the dialog (cron said in Chinese as typed), runs it now and reads its run in 运行记录 (${width} px)`, async () => {
      const page = await newPage(browser, { viewport: { width, height } });
      await login(page, inject('baseURL'), 'admin', inject('adminPassword'));
      await page.goto(`${inject('baseURL')}/system/job`);
      await page.getByText('清理过期日志').first().waitFor();
      await btn(page, '新增任务').click();
      const d = dialog(page);
      await opened(d);
      const name = `清理-${width}-${run}`;
      await d.getByPlaceholder('请输入任务名称').fill(name);
      // the API's fields belong to the API kind (the default), not to the clean-up
      await d.getByText('请求参数（JSON）', { exact: true }).waitFor();
      await d.locator('.ant-select').first().click();
      await page.locator('.ant-select-dropdown:visible').getByText('清理过期日志', { exact: true }).click();
      await d.getByText('请求参数（JSON）', { exact: true }).waitFor({ state: 'hidden' });
      const cron = d.getByPlaceholder('如 */5 * * * *');
      await cron.fill('61 * * * *');
      await d.getByText('第 1 段（分钟）的 61 超出范围 0–59').waitFor();
      await cron.fill('*/5 9-18 * * 1-5');
      await d.getByText('每隔 5 分钟, 在 09:00 和 18:59 之间, 星期一至星期五').waitFor();
      await d.getByText(/^第 5 次：\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/).waitFor();
      await shot(page, `jobs-dialog-${width}`);
      await btn(d, '确定').click();
      await toast(page, '保存成功');
      const row = page.locator('.ant-table-row', { hasText: name });
      await row.getByText('每隔 5 分钟, 在 09:00 和 18:59 之间, 星期一至星期五').waitFor();
      await row.getByText('立即运行').click();
      await confirmBox(page, `确定要立即运行任务【${name}】吗？`);
      await toast(page, '已开始运行，结果见运行记录');
      await row.getByText('运行记录').click();
      const dr = drawer(page);
      await dr.getByText(`任务【${name}】的运行记录`).waitFor();
      // the run finishes within seconds; the drawer's list is read again until it shows the result
      for (let i = 0; i < 30 && !(await dr.locator('.ant-table-row', { hasText: '成功' }).count()); i++) {
        await page.waitForTimeout(500);
        await dr.getByRole('button', { name: /刷\s?新|搜\s?索/ }).first().click().catch(() => undefined);
      }
      const done = dr.locator('.ant-table-row', { hasText: '成功' }).first();
      await done.waitFor();
      await done.getByText('手动').waitFor();
      await done.getByText(/删除操作与登录日志 \d+ 条/).waitFor();
      await shot(page, `jobs-log-${width}`);
      await page.close();
    }, 120_000);
  }

  it('订阅 from a list page under its search: the recipient gets an XLSX of only the rows their data scope holds', async () => {
    const admin = await signIn('admin', inject('adminPassword'));
    const smtp = await startSmtp();
    // the people made here leave with the test (用户管理's tests read its first page)
    const people: number[] = [];
    try {
      // two departments; a role that sees its own department's users; the recipient in 甲, with a mailbox
      const deptA = await must('/api/system/dept/save', { deptName: `订阅甲-${run}`, parentId: 0, orderNum: 0 }, admin);
      const deptB = await must('/api/system/dept/save', { deptName: `订阅乙-${run}`, parentId: 0, orderNum: 0 }, admin);
      const role = await must('/api/system/role/save', { roleName: `本部门-${run}`, roleKey: `sub_dept_${run}`, roleType: 'default', orderNum: 9, dataScope: '3', deptIds: [], permKeys: ['m:user'] }, admin);
      const person = async (username: string, deptId: number, email?: string) => {
        const made = await must('/api/system/user/save', { username, nickName: username, roleIds: [role], deptId, status: 0, ...(email ? { email } : {}) }, admin);
        people.push(made.id);
        return made;
      };
      // the recipient has signed in once and set a password (an account still on its first password gets no data)
      const made = await person(`subli${run}`, deptA, `subli${run}@corp.example`);
      const pem = await must('/api/uams/publicKey');
      const first = await signIn(`subli${run}`, made.password);
      await must('/api/uams/user/password', { oldPassword: encryptFor(pem, made.password), newPassword: encryptFor(pem, 'Fresh#Pass2026') }, first);
      await person(`suba${run}`, deptA);
      await person(`subb${run}`, deptB);
      await must('/api/notify/channel/save', { name: `订阅邮件-${run}`, kind: 'email', target: 'team@corp.example', smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecure: 0, smtpUser: 'alert@corp.example', mailFrom: 'alert@corp.example', secret: 'mail-pass', status: 0 }, admin);

      const page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
      await login(page, inject('baseURL'), 'admin', inject('adminPassword'));
      await page.goto(`${inject('baseURL')}/system/user`);
      const searchBox = page.getByPlaceholder(/请输入/).first();
      await searchBox.fill(run);
      await btn(page, '搜索').click();
      await page.locator('.ant-table-row', { hasText: `subb${run}` }).waitFor();
      await btn(page, '订阅').click();
      const d = dialog(page);
      await opened(d);
      // the job page's dialog, started from this list: kind, page and search filled in
      await d.getByText('发送订阅报告').waitFor();
      await d.getByText('用户（列表页）').waitFor();
      await d.getByText(run, { exact: false }).first().waitFor();
      await expect.poll(() => d.getByPlaceholder('请输入任务名称').inputValue()).toBe('订阅：用户');
      await d.getByPlaceholder('请输入任务名称').fill(`订阅用户-${run}`);
      const pick = async (placeholder: string, option: string) => {
        await d.locator('.ant-select', { hasText: placeholder }).click();
        await page.locator('.ant-select-dropdown:visible').getByText(option, { exact: true }).click();
        await page.keyboard.press('Escape');
      };
      await pick('请选择用户（只列出有邮箱的用户）', `subli${run}`);
      await pick('请选择接收渠道', `订阅邮件-${run}（邮件）`);
      await shot(page, 'jobs-subscribe-1600');
      await btn(d, '确定').click();
      await toast(page, '保存成功');
      await page.close();

      const job = (await must('/api/job/job/list', { pageNum: 1, pageSize: 10, search: `订阅用户-${run}` }, admin)).records[0];
      expect(job).toMatchObject({ kind: 'subscription', target: 'page:user' });
      expect(JSON.parse(job.args)).toMatchObject({ search: run });
      await must(`/api/job/job/run?id=${job.id}`, {}, admin);
      const deadline = Date.now() + 30_000;
      while (!smtp.mails.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 300));
      const runs = (await must('/api/job/log/list', { pageNum: 1, pageSize: 5, jobId: job.id }, admin)).records;
      expect(smtp.mails.map((m) => m.to), JSON.stringify(runs)).toEqual([[`subli${run}@corp.example`]]);
      const [file] = attachmentsOf(smtp.mails[0]!.raw);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(file!.content as unknown as ArrayBuffer);
      const cells: string[] = [];
      book.worksheets[0]!.eachRow((r) => cells.push(...Array.from(r.values as unknown[], (v) => String(v ?? ''))));
      // 甲's two users under the search; 乙's is outside the recipient's scope (the admin's list showed it)
      expect([...new Set(cells.filter((c) => c.endsWith(run) && /^sub/.test(c)))].sort()).toEqual([`suba${run}`, `subli${run}`]);
    } finally {
      await smtp.close();
      for (const id of people) await must(`/api/system/user/delete?id=${id}`, {}, admin).catch(() => undefined);
    }
  }, 120_000);

  it('订阅 of a screen: a sheet of its chart and a picture drawn by the server\'s browser, which reaches no other address', async () => {
    const admin = await signIn('admin', inject('adminPassword'));
    const smtp = await startSmtp();
    // an address the screen frames: the picture's browser must never ask it for anything
    const asked: string[] = [];
    const outside = http.createServer((req, res) => {
      asked.push(req.url ?? '');
      res.end('<h1>outside</h1>');
    });
    await new Promise<void>((r) => outside.listen(0, '127.0.0.1', r));
    try {
      const dsId = await salesSource(`subshot_${run}`);
      const fields = await must('/api/dataset/fields', { kind: 'table', dsId, definition: { table: { table: 'sales' } } }, admin);
      const datasetId = await must('/api/dataset/info/save', { name: `订阅销售-${run}`, kind: 'table', dsId, definition: { table: { table: 'sales' } }, fields, cacheTtl: 0 }, admin);
      const screen = await must('/api/datav/screen/info/save', { pageName: `订阅大屏-${run}` }, admin);
      const bar = await must('/api/datav/screen/widget/add', { pageId: screen.id, widgetName: 'barChart' }, admin);
      const dp = bar.widgetProps.datasourceProps;
      bar.widgetProps.datasourceProps = {
        ...dp,
        datasourceType: 'DATASET',
        dataConfig: { ...dp.dataConfig, dataset: { datasetId, fields } },
        dataMapping: dp.dataMapping.map((m: any) => (m.slot === 'measure' ? { ...m, datasetField: 'amount', agg: 'sum' } : m.slot === 'dimension' ? { ...m, datasetField: 'province' } : m)),
      };
      const frame = await must('/api/datav/screen/widget/add', { pageId: screen.id, widgetName: 'iframeView' }, admin);
      frame.widgetProps.viewProps = { ...frame.widgetProps.viewProps, url: `http://127.0.0.1:${(outside.address() as AddressInfo).port}/secret`, top: 500 };
      await must('/api/datav/screen/widget/update', { pageId: screen.id, widgets: [bar, frame] }, admin);
      const channel = await must('/api/notify/channel/save', { name: `大屏邮件-${run}`, kind: 'email', target: 'board@corp.example', smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecure: 0, smtpUser: 'alert@corp.example', mailFrom: 'alert@corp.example', secret: 'mail-pass', status: 0 }, admin);
      const id = await must('/api/job/job/save', { jobName: `大屏订阅-${run}`, kind: 'subscription', target: `screen:${screen.id}`, sendChannels: [channel], cron: '0 8 * * *', tz: 'Asia/Shanghai', status: 0, overlap: 0, retries: 0, timeoutSeconds: 120 }, admin);
      await must(`/api/job/job/run?id=${id}`, {}, admin);
      const deadline = Date.now() + 60_000;
      while (!smtp.mails.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 300));
      const runs = (await must('/api/job/log/list', { pageNum: 1, pageSize: 5, jobId: id }, admin)).records;
      expect(smtp.mails.map((m) => m.to), JSON.stringify(runs)).toEqual([['board@corp.example']]);
      const files = attachmentsOf(smtp.mails[0]!.raw);
      expect(files.map((f) => f.contentType)).toEqual(['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'image/png']);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(files[0]!.content as unknown as ArrayBuffer);
      const rows: string[] = [];
      book.worksheets[0]!.eachRow((r) => rows.push(Array.from(r.values as unknown[], (v) => String(v ?? '')).filter(Boolean).join('|')));
      expect(rows.slice(1).sort()).toEqual(['广东|50', '江苏|160', '浙江|240']);
      // a real picture of the screen (a PNG of its size, not a blank page), and the framed address never asked
      const png = files[1]!.content;
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.readUInt32BE(16)).toBe(1920);
      writeFileSync(join(process.cwd(), '.test-results', 'screens', 'jobs-subscription-picture.png'), png);
      expect(png.length).toBeGreaterThan(5_000);
      expect(asked).toEqual([]);
    } finally {
      await smtp.close();
      outside.close();
    }
  }, 120_000);

  describe.skipIf(!PG_URL || !REDIS_URL)('on two instances', () => {
    const dataDir = mkdtempSync(join(os.tmpdir(), 'jobs-e2e-'));
    const schema = `jobs_e2e_${run}`;
    let a: Awaited<ReturnType<typeof startDeployment>> | undefined;
    let b: Awaited<ReturnType<typeof startDeployment>> | undefined;
    let token = '';
    let smtp: SMTPServer | undefined;
    let smtpPort = 0;
    const mails: string[] = [];
    beforeAll(async () => {
      smtp = new SMTPServer({
        disabledCommands: ['STARTTLS', 'AUTH'],
        onData(stream, _session, done) {
          let raw = '';
          stream.on('data', (d: Buffer) => (raw += d.toString('utf8')));
          stream.on('end', () => {
            mails.push(raw);
            done();
          });
        },
      });
      await new Promise<void>((r) => smtp!.listen(0, '127.0.0.1', r));
      smtpPort = (smtp.server.address() as AddressInfo).port;
      const env = {
        DATA_DIR: dataDir,
        DATABASE_URL: PG_URL!,
        DATABASE_SCHEMA: schema,
        REDIS_URL: REDIS_URL!,
        JOB_POLL_MS: '500',
        JOB_EXPIRE_CHECK_SECONDS: '2',
        JOB_RETRY_DELAY_SECONDS: '1',
        ALERT_CHECK_SECONDS: '1',
        SECRET_KEY: `jobs-e2e-${run}`,
      };
      a = await startDeployment({ ...env, INSTANCE_ID: 'a' });
      b = await startDeployment({ ...env, INSTANCE_ID: 'b' });
      const pem = await at(a.baseURL, '/api/uams/publicKey');
      token = (await at(a.baseURL, '/api/uams/login', { mobilePhone: 'admin', password: encryptFor(pem, ADMIN_PASSWORD) })).token;
      // a data source both instances read (DATA_DIR is shared, as several instances need), and two published APIs
      mkdirSync(join(dataDir, 'sqlite'), { recursive: true });
      const db = new Database(join(dataDir, 'sqlite', 'shop.db'));
      db.exec("CREATE TABLE goods (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO goods (name) VALUES ('apple'), ('pear'), ('plum');");
      db.close();
      await at(a.baseURL, '/api/gemini/datasource/info/save', { dsName: 'shop', dbType: 'sqlite', dbName: 'shop.db' }, token);
      const group = await at(a.baseURL, '/api/gemini/api/group/save', { parentId: 0, name: '定时' }, token);
      for (const [apiName, script] of [
        ['goods', 'select name from goods order by id'],
        // about four seconds of work on this machine, a count at the end
        ['slow_count', 'with recursive t(n) as (select 1 union all select n + 1 from t where n < 30000000) select count(*) as c from t'],
      ]) {
        const apiId = await at(a.baseURL, '/api/gemini/api/design/info/save', { groupId: group, apiName, apiComment: apiName }, token);
        await at(a.baseURL, '/api/gemini/api/config/save', { apiId, dsName: 'shop', script, cacheable: 0 }, token);
        await at(a.baseURL, '/api/gemini/api/design/info/submit', { id: apiId }, token);
        await at(a.baseURL, '/api/gemini/api/approve/resolveAndOnline', { id: apiId, approveResult: '同意' }, token);
      }
    }, 180_000);
    afterAll(async () => {
      await new Promise((r) => smtp?.close(() => r(null)));
      await a?.stop();
      await b?.stop();
      rmSync(dataDir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.query(`DROP SCHEMA IF EXISTS "${schema}_queue" CASCADE`);
      await client.end();
    });

    const logOf = async (base: string, jobId: number) => (await at(base, '/api/job/log/list', { pageNum: 1, pageSize: 50, jobId }, token)).records as any[];

    it('a job due this minute runs once, on one of the two instances', async () => {
      await at(a!.baseURL, '/api/job/job/save', { jobName: '每分钟调用商品', kind: 'api', target: 'goods', cron: '* * * * *', tz: 'Asia/Shanghai', status: 0, overlap: 0, retries: 1, timeoutSeconds: 60 }, token);
      const job = (await at(a!.baseURL, '/api/job/job/list', { pageNum: 1, pageSize: 50, search: '每分钟调用商品' }, token)).records[0];
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`update "${schema}".sys_job set next_due = $1 where id = $2`, [Math.floor(Date.now() / 60_000), job.id]);
      await client.end();
      let runs: any[] = [];
      for (let i = 0; i < 60 && !(runs.length && runs.every((r) => r.status >= 2)); i++) {
        await new Promise((r) => setTimeout(r, 250));
        runs = await logOf(b!.baseURL, job.id);
      }
      await new Promise((r) => setTimeout(r, 1500));
      runs = (await logOf(b!.baseURL, job.id)).filter((r) => r.trigger === 'cron');
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ status: 2, message: '调用接口【goods】成功，返回 3 行' });
      expect(['a', 'b']).toContain(runs[0].instance);
      await at(a!.baseURL, `/api/job/job/pause?id=${job.id}`, {}, token);
    }, 60_000);

    it('an alert rule on the API, set in API 监控, fires to an e-mail channel: the mail arrives once with two instances running', async () => {
      await at(a!.baseURL, '/api/notify/channel/save', { name: '值班邮箱', kind: 'email', target: 'oncall@corp.example', smtpHost: '127.0.0.1', smtpPort, smtpSecure: 0, status: 0 }, token);
      const page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
      await login(page, a!.baseURL, 'admin', ADMIN_PASSWORD);
      // the API has calls (the job above made one), so API 监控 lists it
      await at(b!.baseURL, '/open/api/goods', {}, token);
      await page.goto(`${a!.baseURL}/apimgr/monitor`);
      const monitor = page.getByTestId('api-monitor');
      const apiRow = monitor.getByTestId('monitor-apis').locator('.ant-table-row', { hasText: 'goods' }).first();
      await apiRow.waitFor({ timeout: 30_000 });
      await apiRow.getByRole('button', { name: '告警规则' }).click();
      const modal = page.locator('.ant-modal:visible');
      await modal.getByLabel('阈值（%）').fill('50');
      await modal.getByTestId('alert-channels').click();
      await page.locator('.ant-select-item-option', { hasText: '值班邮箱（邮件）' }).click();
      await modal.getByText('通知渠道').first().click(); // closes the list
      await modal.getByTestId('alert-save').click();
      await toast(page, '告警规则已保存');
      // the API breaks: calls on both instances fail
      const db = new Database(join(dataDir, 'sqlite', 'shop.db'));
      db.exec('alter table goods rename to goods_gone');
      db.close();
      for (const base of [a!.baseURL, b!.baseURL, a!.baseURL, b!.baseURL]) await fetch(`${base}/open/api/goods`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{}' });
      const alerts = () => mails.map(subjectOf).filter((t) => t.includes('接口 goods'));
      for (let i = 0; i < 60 && !alerts().length; i++) await page.waitForTimeout(500);
      await page.waitForTimeout(4000); // both instances looked at the rule several times more
      expect(alerts()).toEqual(['【告警】接口 goods']);
      await monitor.getByTestId('alert-goods').getByText('告警').waitFor({ timeout: 30_000 });
      await shot(page, 'jobs-alert-firing');
      const mended = new Database(join(dataDir, 'sqlite', 'shop.db'));
      mended.exec('alter table goods_gone rename to goods');
      mended.close();
      await page.close();
    }, 120_000);

    it('kills the instance running a long job: the other runs it again, and the log says so', async () => {
      await at(a!.baseURL, '/api/job/job/save', { jobName: '长任务', kind: 'api', target: 'slow_count', cron: '0 3 * * *', tz: 'Asia/Shanghai', status: 0, overlap: 0, retries: 1, timeoutSeconds: 20 }, token);
      const page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
      await login(page, a!.baseURL, 'admin', ADMIN_PASSWORD);
      await page.goto(`${a!.baseURL}/system/job`);
      const row = page.locator('.ant-table-row', { hasText: '长任务' });
      await row.getByText('立即运行').click();
      await confirmBox(page, '确定要立即运行任务【长任务】吗？');
      await toast(page, '已开始运行，结果见运行记录');
      const job = (await at(a!.baseURL, '/api/job/job/list', { pageNum: 1, pageSize: 50, search: '长任务' }, token)).records[0];
      // the run starts on one instance (the one that was asked wakes first, but either may take it)
      let running: any;
      for (let i = 0; i < 40 && !running; i++) {
        await new Promise((r) => setTimeout(r, 100));
        running = (await logOf(b!.baseURL, job.id)).find((r) => r.status === 1);
      }
      expect(running, 'the run started').toBeTruthy();
      const [victim, survivor] = running.instance === 'a' ? [a!, b!] : [b!, a!];
      const survivorName = running.instance === 'a' ? 'b' : 'a';
      await victim.kill();
      // the survivor's log shows the run again: started anew there, then done
      const view = victim === a ? await newPage(browser, { viewport: { width: 1600, height: 900 } }) : page;
      if (victim === a) await login(view, survivor.baseURL, 'admin', ADMIN_PASSWORD);
      await view.goto(`${survivor.baseURL}/system/job`);
      await view.locator('.ant-table-row', { hasText: '长任务' }).getByText('运行记录').click();
      const dr = drawer(view);
      const redone = dr.locator('.ant-table-row', { hasText: `实例 ${running.instance} 在运行中停止，由实例 ${survivorName} 重新运行（第 2 次尝试）` });
      for (let i = 0; i < 120 && !(await redone.filter({ hasText: '成功' }).count()); i++) {
        await view.waitForTimeout(500);
        await dr.getByRole('button', { name: /刷\s?新|搜\s?索/ }).first().click().catch(() => undefined);
      }
      await redone.filter({ hasText: '成功' }).waitFor({ timeout: 5000 });
      await shot(view, 'jobs-killed-instance');
      const runs = await logOf(survivor.baseURL, job.id);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ status: 2, attempts: 2, instance: survivorName });
      expect(runs[0].message).toContain('调用接口【slow_count】成功，返回 1 行');
      await page.close();
      if (view !== page) await view.close();
    }, 180_000);
  });
});
