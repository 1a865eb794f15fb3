// Issue 39 item 5: 订阅 over real HTTP — a list page's search sent on a schedule as an XLSX, through the suite's SMTP
// server: each user gets the rows their own data scope lets them see (the page's export under a session of theirs),
// at their own address; a robot gets the link only, never a token; hostile saves are refused with the reason; an
// owner who lost the right makes the run fail.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverForSuite } from '../../testing/server.js';
import { addPerson } from '../../testing/people.js';
import { sqliteFixture } from '../../testing/sqlite.js';
import { attachmentsOf, startRobot, startSmtp, subjectOf, textOf } from '../../testing/listeners.js';
import { waitFor } from '../../testing/wait.js';
import { RUN } from './index.js';

const J = '/api/job/job';

async function rowsOf(content: Buffer): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(content as unknown as ArrayBuffer);
  const out: string[][] = [];
  book.worksheets[0]!.eachRow((row) => out.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
  return out;
}

describe('订阅: a list page sent as XLSX, each recipient their own rows', () => {
  const s = serverForSuite({ env: { JOB_POLL_MS: '150', NOTIFY_ALLOW_LOOPBACK: '1', LOGINS_PER_MINUTE: '1000' } });
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let robot: Awaited<ReturnType<typeof startRobot>>;
  const ids: Record<string, number> = {};
  const tokens: Record<string, string> = {};
  const must = async (method: 'GET' | 'POST', path: string, body?: unknown, token?: string) => {
    const r = await s.request<any>(method, path, body, token);
    if (r.body.status !== 0) throw new Error(`${path}: ${r.body.msg}`);
    return r.body.data;
  };
  const runJob = async (id: number) => {
    await must('POST', `${J}/run?id=${id}`);
    const rows = await waitFor(
      async () => (await s.request<any>('POST', '/api/job/log/list', { pageNum: 1, pageSize: 20, jobId: id })).body.data.records as any[],
      (r) => r.length > 0 && r[0].status >= RUN.ok,
    );
    return rows[0];
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    robot = await startRobot();
    ids.self = await must('POST', '/api/system/role/save', { roleName: '本人数据', roleKey: 'sub_self', roleType: 'default', orderNum: 9, dataScope: '5', deptIds: [], permKeys: [] });
    for (const name of ['sub.li', 'sub.wang']) ({ id: ids[name], token: tokens[name] } = await addPerson(s, name, [ids.self], undefined, { email: `${name}@corp.example` }));
    ids.nomail = (await addPerson(s, 'sub.nomail', [ids.self])).id;
    const rows = [
      ['li-1', ids['sub.li']],
      ['li-2', ids['sub.li']],
      ['wang-1', ids['sub.wang']],
      ['other', 999],
    ];
    const dsId = await sqliteFixture(
      s,
      'sub.db',
      `create table sub_orders(id integer primary key, title varchar(40) not null, owner_id integer); insert into sub_orders(title, owner_id) values ${rows.map(([t, u]) => `('${t}', ${u})`).join(', ')};
       create table sub_sales(id integer primary key, owner varchar(40), amount integer); insert into sub_sales(owner, amount) values ('sub.li', 10), ('sub.li', 5), ('sub.wang', 7), ('other', 100)`,
      'sub_lite',
    );
    // a screen charting sales by owner; each recipient's row rule keeps their own
    const fields = await must('POST', '/api/dataset/fields', { kind: 'table', dsId, definition: { table: { table: 'sub_sales' } } });
    await must('POST', '/api/dataset/info/save', { name: '销售', kind: 'table', dsId, definition: { table: { table: 'sub_sales' } }, fields, cacheTtl: 0, rowRules: [{ subject: 'role', key: 'sub_self', field: 'owner', attribute: 'username' }] });
    const datasetId = (await s.app.ctx.db.selectFrom('dataset').select('id').where('name', '=', '销售').executeTakeFirstOrThrow()).id;
    const screen = await must('POST', '/api/datav/screen/info/save', { pageName: '销售大屏' });
    ids.screen = screen.id;
    const bar = await must('POST', '/api/datav/screen/widget/add', { pageId: screen.id, widgetName: 'barChart' });
    const dp = bar.widgetProps.datasourceProps;
    bar.widgetProps.datasourceProps = {
      ...dp,
      datasourceType: 'DATASET',
      dataConfig: { ...dp.dataConfig, dataset: { datasetId, fields: fields.map((f: any) => ({ name: f.name, label: f.name === 'amount' ? '金额' : f.name })) } },
      dataMapping: dp.dataMapping.map((m: any) => (m.slot === 'measure' ? { ...m, datasetField: 'amount', agg: 'sum' } : m.slot === 'dimension' ? { ...m, datasetField: 'owner' } : m)),
    };
    await must('POST', '/api/datav/screen/widget/update', { pageId: screen.id, widgets: [bar] });
    const d = await must('POST', '/api/lowcode/source/generate', { dsId, table: 'sub_orders', pageKey: 'subOrders', title: '订单' });
    d.declaration.source = { ...d.declaration.source, ownerColumn: 'owner_id' };
    await must('POST', '/api/lowcode/page/save', { pageKey: 'subOrders', declaration: d.declaration, published: true, roles: ['sub_self'] });
    await s.app.ctx.db.insertInto('sys_role_permission').values([...['list', 'export'].map((a) => `lowcode:subOrders:${a}`), 'datav:dataset:query'].map((permission) => ({ role_id: ids.self!, permission }))).execute();
    ids.mail = await must('POST', '/api/notify/channel/save', { name: '订阅邮件', kind: 'email', target: 'team@corp.example', smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecure: 0, smtpUser: 'alert@corp.example', mailFrom: 'alert@corp.example', secret: 'mail-pass', status: 0 });
    ids.robot = await must('POST', '/api/notify/channel/save', { name: '订阅群', kind: 'wecom', target: `${robot.url}/cgi-bin/webhook/send?key=k`, status: 0 });
  });
  afterAll(async () => {
    await smtp?.close();
    await robot?.close();
  });

  const base = { jobName: '每日订单', kind: 'subscription', cron: '0 8 * * *', tz: 'Asia/Shanghai', status: 0, overlap: 0, retries: 0, timeoutSeconds: 120 };

  it('offers the exportable list pages and the users with a mailbox', async () => {
    const targets = (await must('GET', `${J}/targets?kind=subscription`)) as Array<{ value: string; label: string }>;
    expect(targets).toContainEqual({ value: 'page:subOrders', label: '订单（自定义页面）' });
    expect(targets.every((t) => /^(page|screen):/.test(t.value))).toBe(true);
    const users = (await must('GET', `${J}/users`)) as Array<{ value: number; label: string }>;
    expect(users.map((u) => u.value)).toEqual(expect.arrayContaining([ids['sub.li'], ids['sub.wang']]));
    expect(users.map((u) => u.value)).not.toContain(ids.nomail);
    expect(JSON.stringify(users)).not.toContain('@');
  });

  it('refuses what it cannot send, with the reason', async () => {
    const refused = async (extra: Record<string, unknown>) => (await s.request('POST', `${J}/save`, { ...base, target: 'page:subOrders', sendUsers: [ids['sub.li']], sendChannels: [ids.mail], ...extra })).body.msg;
    expect(await refused({ target: 'page:../../etc' })).toBe('请选择要订阅的页面（可导出的列表页面或大屏）');
    expect(await refused({ target: 'page:constructor' })).toBe('请选择要订阅的页面（可导出的列表页面或大屏）');
    expect(await refused({ target: "page:x' or '1'='1" })).toBe('请选择要订阅的页面（可导出的列表页面或大屏）');
    expect(await refused({ args: '[1,2]' })).toBe('查询条件须为 JSON 对象，如 {"status": "0"}');
    expect(await refused({ args: '{"pageSize": "100000"}' })).toBe('查询条件的字段名不合法：pageSize');
    expect(await refused({ args: '{"title": {"$gt": ""}}' })).toBe('查询条件「title」的值须为文字、数字或它们的列表');
    expect(await refused({ sendUsers: [], sendChannels: [] })).toBe('请选择接收的用户或通知渠道');
    expect(await refused({ sendUsers: ['1; drop table sys_user'] })).toBe('接收用户不合法（最多 200 个）');
    expect(await refused({ sendUsers: [ids.nomail] })).toBe('用户【sub.nomail】没有邮箱，无法接收订阅');
    expect(await refused({ sendChannels: [ids.robot] })).toBe('发给用户需要选择一个邮件渠道（用它的邮件服务器发送到各人的邮箱）');
    expect(await refused({ sendChannels: [987654] })).toBe('所选通知渠道不存在');
  });

  it('sends each user an XLSX of only their own rows, to their own address, with a link and no token', async () => {
    const id = await must('POST', `${J}/save`, { ...base, target: 'page:subOrders', sendUsers: [ids['sub.li'], ids['sub.wang']], sendChannels: [ids.mail, ids.robot] });
    const before = smtp.mails.length;
    // every session the run makes, to look for it in what was sent
    const made: string[] = [];
    const sessions = s.app.ctx.sessions;
    const create = sessions.create.bind(sessions);
    sessions.create = async (...a: Parameters<typeof create>) => {
      const t = await create(...a);
      made.push(t);
      return t;
    };
    const run = await runJob(id).finally(() => {
      sessions.create = create;
    });
    expect(made).toHaveLength(2);
    expect(run.status, run.message).toBe(RUN.ok);
    expect(run.message).toMatch(/^订阅「订单」：已发送 3 份（sub\.li、sub\.wang、渠道 #\d+）$/);
    const mails = smtp.mails.slice(before);
    expect(mails.map((m) => m.to.join(',')).sort()).toEqual(['sub.li@corp.example', 'sub.wang@corp.example']);
    for (const m of mails) {
      expect(subjectOf(m.raw)).toMatch(/^【订阅】订单（\d{4}-\d{2}-\d{2}）$/);
      const [file] = attachmentsOf(m.raw);
      expect(file?.filename).toMatch(/^订单-\d{4}-\d{2}-\d{2}\.xlsx$/);
      const titles = (await rowsOf(file!.content)).slice(1).map((r) => r.find((c) => /^(li|wang|other)/.test(c)));
      expect(titles.sort()).toEqual(m.to[0] === 'sub.li@corp.example' ? ['li-1', 'li-2'] : ['wang-1']);
      expect(textOf(m.raw)).toMatch(/打开页面：http:\/\/[^/]+\/custom\/subOrders/);
    }
    // the robot gets the link, no file and no token; the recipients' sessions are gone
    const said = JSON.stringify(robot.received.at(-1)?.body);
    expect(said).toContain('/custom/subOrders');
    for (const t of made) {
      expect(said).not.toContain(t);
      for (const m of mails) expect(m.raw).not.toContain(t);
    }
    const live = await s.app.ctx.sessions.list();
    expect(live.filter((x) => x.address === 'scheduler')).toEqual([]);
  });

  it('applies the saved search: only the rows it finds', async () => {
    const id = await must('POST', `${J}/save`, { ...base, jobName: '李的订单', target: 'page:subOrders', args: '{"search": "li-2"}', sendUsers: [ids['sub.li']], sendChannels: [ids.mail] });
    const before = smtp.mails.length;
    expect((await runJob(id)).status).toBe(RUN.ok);
    const [file] = attachmentsOf(smtp.mails[before]!.raw);
    expect((await rowsOf(file!.content)).slice(1).map((r) => r.find((c) => /^li/.test(c)))).toEqual(['li-2']);
  });

  it('a screen: one sheet a chart, each recipient under their own row rules', async () => {
    expect(await must('GET', `${J}/targets?kind=subscription`)).toContainEqual({ value: `screen:${ids.screen}`, label: '销售大屏（大屏）' });
    const id = await must('POST', `${J}/save`, { ...base, jobName: '销售日报', target: `screen:${ids.screen}`, sendUsers: [ids['sub.li'], ids['sub.wang']], sendChannels: [ids.mail] });
    const before = smtp.mails.length;
    const run = await runJob(id);
    expect(run.status, run.message).toBe(RUN.ok);
    const mails = smtp.mails.slice(before);
    expect(mails).toHaveLength(2);
    for (const m of mails) {
      const [file, ...more] = attachmentsOf(m.raw);
      expect(more).toEqual([]); // no browser configured here: no picture
      expect(file?.filename).toMatch(/^销售大屏-\d{4}-\d{2}-\d{2}\.xlsx$/);
      const table = await rowsOf(file!.content);
      expect(table[0]).toEqual(['owner', '金额（求和）']);
      expect(table.slice(1)).toEqual(m.to[0] === 'sub.li@corp.example' ? [['sub.li', '15']] : [['sub.wang', '7']]);
      expect(textOf(m.raw)).toMatch(new RegExp(`打开页面：http://[^/]+/datav/screen/preview\\?pageId=${ids.screen}`));
    }
    expect((await s.request('POST', `${J}/save`, { ...base, target: 'screen:99999', sendChannels: [ids.mail] })).body.msg).toBe('请选择要订阅的页面（可导出的列表页面或大屏）');
  });

  it('the one saving it sends only to people in their data scope, only what they may read themselves, through one mail server', async () => {
    const role = await must('POST', '/api/system/role/save', { roleName: '任务管理员', roleKey: 'sub_jobs', roleType: 'default', orderNum: 9, dataScope: '5', deptIds: [], permKeys: ['m:job', 'm:job-add', 'm:job-edit', 'm:job-run', 'm:user'] });
    const boss = await addPerson(s, 'sub.boss', [role], undefined, { email: 'sub.boss@corp.example' });
    const save = (body: Record<string, unknown>) => s.request('POST', `${J}/save`, { ...base, jobName: `主管-${Object.keys(body).join('')}`, target: 'page:user', sendChannels: [ids.mail], ...body }, boss.token);
    expect((await save({ sendUsers: [ids['sub.li']] })).body.msg).toBe('用户【sub.li】不在任务所有者【sub.boss】的数据权限范围内');
    expect((await save({ target: 'page:subOrders', sendUsers: [boss.id] })).body.msg).toBe('任务所有者【sub.boss】没有查看「订单」的权限');
    expect(((await s.request<any[]>('GET', `${J}/users`, undefined, boss.token)).body.data ?? []).map((u) => u.value)).toEqual([boss.id]);
    const second = await must('POST', '/api/notify/channel/save', { name: '另一个邮件', kind: 'email', target: 'x@corp.example', smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecure: 0, smtpUser: 'alert@corp.example', mailFrom: 'alert@corp.example', secret: 'mail-pass', status: 0 });
    expect((await s.request('POST', `${J}/save`, { ...base, jobName: '两个邮件', target: 'page:subOrders', sendUsers: [ids['sub.li']], sendChannels: [ids.mail, second] })).body.msg).toBe('发给用户时只能选择一个邮件渠道（用它的邮件服务器发送到各人的邮箱）');
    // the boss's own: saved; once the boss may no longer read 用户, the run fails and says why, sending nothing
    const id = (await save({ sendUsers: [boss.id] })).body.data as number;
    expect(id).toBeGreaterThan(0);
    await must('POST', '/api/system/role/save', { id: role, roleName: '任务管理员', roleKey: 'sub_jobs', roleType: 'default', orderNum: 9, dataScope: '5', deptIds: [], permKeys: ['m:job', 'm:job-add', 'm:job-edit', 'm:job-run'] });
    const before = smtp.mails.length;
    const run = await runJob(id);
    expect(run.status).toBe(RUN.failed);
    expect(run.message).toBe('任务所有者【sub.boss】没有查看「用户」的权限');
    expect(smtp.mails.length).toBe(before);
  });

  it('a recipient who lost the page is told apart, and a run that delivered nothing fails', async () => {
    await s.app.ctx.db.deleteFrom('sys_role_permission').where('role_id', '=', ids.self!).where('permission', '=', 'lowcode:subOrders:export').execute();
    const id = await must('POST', `${J}/save`, { ...base, jobName: '无权', target: 'page:subOrders', sendUsers: [ids['sub.wang']], sendChannels: [ids.mail] });
    const run = await runJob(id);
    expect(run.status).toBe(RUN.failed);
    expect(run.message).toMatch(/^订阅「订单」：已发送 0 份；失败 1 份：用户 sub\.wang：/);
  });
});
