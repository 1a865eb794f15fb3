import { appendFileSync, existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../config.js';
import { startTestServer, testStores, type TestServer } from '../../testing/server.js';

const LIST = '/api/monitor/log/searchList';
const logPath = (s: TestServer, name: string) => path.join(s.dataDir, 'logs', name);

/** A line as pino writes it. */
function pinoLine(fields: Record<string, unknown>): string {
  return `${JSON.stringify({ level: 30, time: new Date().toISOString(), pid: 1, hostname: 'h', service: 'auth', ...fields })}\n`;
}

/** The request log is written once the answer has gone: wait until the wanted line is there. */
async function waitForRecords(s: TestServer, body: object, until: (records: any[]) => boolean, token?: string) {
  let records: any[] = [];
  for (let i = 0; i < 50; i++) {
    const r = await s.request('POST', LIST, body, token);
    records = r.body.data?.records ?? [];
    if (until(records)) return r.body;
    await new Promise((res) => setTimeout(res, 20));
  }
  throw new Error(`records never matched: ${JSON.stringify(records.slice(0, 3))}`);
}

describe.each(testStores)('log monitor (%s store)', (store) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ store });
  });
  afterAll(() => s?.close());

  it('shows the requests made before, newest first, as readable lines', async () => {
    await s.request('POST', '/api/sys/var/searchList', {});
    const del = await s.request('POST', '/api/sys/var/delete?id=0');
    const body = await waitForRecords(s, { serveName: 'platform' }, (r) => r[0]?.url === '/api/sys/var/delete');
    expect(body.status).toBe(0);
    const [last, before] = body.data.records;
    expect(last).toMatchObject({ level: 'INFO', method: 'POST', url: '/api/sys/var/delete', status: del.http, ip: '127.0.0.1' });
    expect(before).toMatchObject({ method: 'POST', url: '/api/sys/var/searchList', status: 200 });
    expect(last.line).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} INFO {2}\[[^\]]+\] 127\.0\.0\.1 POST \/api\/sys\/var\/delete \d{3} \d+ms request/);
    // never the query string
    expect(last.line).not.toContain('id=0');
    const times = body.data.records.map((r: any) => r.time);
    expect([...times].sort().reverse()).toEqual(times);
    // default service is the development platform
    const dflt = (await s.request('POST', LIST, {})).body.data.records;
    expect(dflt[0].url).toBe('/api/sys/var/delete');
  });

  it('page sizes 10, 50, 100 only; paging skips the newer lines', async () => {
    for (let i = 0; i < 12; i++) await s.request('POST', '/api/sys/var/searchList', { search: `p${i}` });
    await waitForRecords(s, { pageSize: 100 }, (r) => r.length >= 14);
    for (const pageSize of [10, 50, 100]) expect((await s.request('POST', LIST, { pageSize })).body.status).toBe(0);
    for (const pageSize of [0, 7, 20, 1000, '10']) {
      const r = await s.request('POST', LIST, { pageSize });
      expect(r.body.status).toBe(1);
      expect(r.body.msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    const p1 = (await s.request('POST', LIST, { pageSize: 10, pageNum: 1 })).body.data;
    const p2 = (await s.request('POST', LIST, { pageSize: 10, pageNum: 2 })).body.data;
    const all = (await s.request('POST', LIST, { pageSize: 100 })).body.data;
    expect(p1.records).toHaveLength(10);
    expect(p1.more).toBe(true);
    expect(p1.total).toBe(11);
    expect(p2.records.map((r: any) => r.line)).toEqual(all.records.slice(10, 20).map((r: any) => r.line));
    expect((await s.request('POST', LIST, { pageNum: 0 })).body.status).toBe(1);
  });

  it('serveName only from the dictionary', async () => {
    for (const serveName of ['../../etc/passwd', 'platform/../auth', 'PLATFORM', '', 'auth.log', '__proto__', 5]) {
      const r = await s.request('POST', LIST, { serveName });
      expect(r.body.status).toBe(1);
      expect(r.body.msg).toContain('服务名称');
    }
    for (const serveName of ['auth', 'admin', 'platform']) expect((await s.request('POST', LIST, { serveName })).body.status).toBe(0);
    expect((await s.request('POST', LIST, { search: 'x'.repeat(21) })).body.status).toBe(1);
    expect((await s.request('POST', LIST, { ip: 'x'.repeat(65) })).body.status).toBe(1);
  });

  it('search is plain text and case-insensitive; ip filters by client address', async () => {
    await s.request('POST', '/api/sys/var/delete?id=0');
    const found = await waitForRecords(s, { search: 'VAR/DELETE', pageSize: 100 }, (r) => r.length > 0);
    expect(found.data.records.every((r: any) => r.url === '/api/sys/var/delete')).toBe(true);
    // regex characters are text
    expect((await s.request('POST', LIST, { search: '.*' })).body.data.records).toEqual([]);
    appendFileSync(logPath(s, 'auth.log'), pinoLine({ reqId: 'req-x', ip: '10.1.2.3', method: 'GET', route: '/api/far', status: 404, ms: 3, msg: 'request' }));
    const byIp = (await s.request('POST', LIST, { serveName: 'auth', ip: '10.1.2.3' })).body.data;
    expect(byIp.records).toHaveLength(1);
    expect(byIp.records[0]).toMatchObject({ url: '/api/far', status: 404, reqId: 'req-x' });
    expect((await s.request('POST', LIST, { serveName: 'auth', ip: '127.0.0.1' })).body.data.records.every((r: any) => r.ip === '127.0.0.1')).toBe(true);
    expect((await s.request('POST', LIST, { serveName: 'auth', ip: '10.1.2' })).body.data.records).toEqual([]);
  });

  it('never shows a token, an Authorization value or a password', async () => {
    const dev = await s.loginAs('devapprover');
    await s.request('POST', '/api/sys/var/searchList', {}, dev);
    await s.request('POST', '/api/uams/session/find', {}, dev);
    // lines that would leak if written: the reader drops them as well
    appendFileSync(
      logPath(s, 'auth.log'),
      pinoLine({ req: { method: 'POST', url: `/api/x?token=${dev}`, headers: { authorization: `Bearer ${dev}`, cookie: `sid=${dev}`, host: 'h' } }, token: dev, password: 'Secret#1', msg: 'leak?' }) +
        `plain Authorization: Bearer ${dev} end\n`,
    );
    for (const serveName of ['auth', 'admin', 'platform']) {
      const records = (await s.request('POST', LIST, { serveName, pageSize: 100 })).body.data.records;
      expect(records.length).toBeGreaterThan(0);
      const text = JSON.stringify(records);
      expect(text).not.toContain(dev);
      expect(text).not.toContain(s.token);
      expect(text).not.toContain('Secret#1');
    }
    const auth = (await s.request('POST', LIST, { serveName: 'auth', pageSize: 10 })).body.data.records;
    expect(auth[0].line).toBe('plain Authorization: Bearer ****** end');
    expect(auth[1].line).toContain('password=******');
    expect(auth[1].line).toContain('host');
    expect(auth[1].line).not.toMatch(/authorization|cookie|token/i);
  });

  it('a line that is not JSON shows as it is, long ones cut at 2000 characters', async () => {
    appendFileSync(logPath(s, 'admin.log'), `纯文本行 not json {oops\n${'y'.repeat(5000)}\n`);
    const r = (await s.request('POST', LIST, { serveName: 'admin', search: '纯文本行' })).body.data.records;
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({ line: '纯文本行 not json {oops', msg: '纯文本行 not json {oops', level: '' });
    const long = (await s.request('POST', LIST, { serveName: 'admin', search: 'yyyy' })).body.data.records;
    expect(long[0].line.length).toBeLessThanOrEqual(2001);
  });

  it('the rotated .1 file is read after the current one', async () => {
    writeFileSync(logPath(s, 'admin.log.1'), pinoLine({ msg: 'rotmark-old-1' }) + pinoLine({ msg: 'rotmark-old-2' }), { mode: 0o600 });
    appendFileSync(logPath(s, 'admin.log'), pinoLine({ msg: 'rotmark-current' }));
    const r = (await s.request('POST', LIST, { serveName: 'admin', search: 'rotmark' })).body.data;
    expect(r.records.map((x: any) => x.msg)).toEqual(['rotmark-current', 'rotmark-old-2', 'rotmark-old-1']);
    expect(r).toMatchObject({ total: 3, more: false, partial: false });
    const p2 = (await s.request('POST', LIST, { serveName: 'admin', search: 'rotmark', pageSize: 10, pageNum: 2 })).body.data;
    expect(p2).toMatchObject({ records: [], total: 3 });
  });

  it('a user without monitor:log:list is refused', async () => {
    const biz = await s.loginAs('bizapprover');
    const r = await s.request('POST', LIST, {}, biz);
    expect(r.http).toBe(403);
    expect(r.body.msg).toContain('没有权限');
  });
});

describe('log monitor on large and rotating files', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { LOG_MAX_BYTES: '2048', LOG_KEEP: '2', LOG_SEARCH_MS: '200' } });
  });
  afterAll(() => s?.close());

  it('rotates past the size limit, keeps LOG_KEEP files at 0600, reads them as one sequence', async () => {
    for (let i = 0; i < 40; i++) await s.request('POST', '/api/sys/var/searchList', {});
    await new Promise((res) => setTimeout(res, 50));
    const cur = logPath(s, 'platform.log');
    expect(existsSync(`${cur}.1`)).toBe(true);
    expect(existsSync(`${cur}.2`)).toBe(true);
    expect(existsSync(`${cur}.3`)).toBe(false);
    for (const f of [cur, `${cur}.1`, `${cur}.2`]) {
      expect(statSync(f).size).toBeLessThan(2048 + 1024);
      expect(statSync(f).mode & 0o777).toBe(0o600);
    }
    const r = (await s.request('POST', LIST, { pageSize: 100 })).body.data;
    expect(r.records.length).toBeGreaterThan(20);
    expect(r.records.every((x: any) => x.url === '/api/sys/var/searchList')).toBe(true);
    const times = r.records.map((x: any) => x.time);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('answers the newest page of a 200k-line file at once; a long search answers what it found', async () => {
    const file = logPath(s, 'auth.log');
    const t = Date.parse('2026-11-01T00:00:00Z');
    const chunk: string[] = [];
    for (let i = 0; i < 200_000; i++) {
      chunk.push(JSON.stringify({ level: 30, time: new Date(t + i).toISOString(), service: 'auth', reqId: `req-${i}`, ip: '10.0.0.1', method: 'GET', route: `/api/big/${i}`, status: 200, ms: 1, msg: 'request' }));
    }
    appendFileSync(file, `${chunk.join('\n')}\n`);
    expect(statSync(file).size).toBeGreaterThan(20_000_000);
    const started = Date.now();
    const r = await s.request('POST', LIST, { serveName: 'auth', pageSize: 100 });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(r.body.data.records[0].url).toBe('/api/big/199999');
    expect(r.body.data.records[99].url).toBe('/api/big/199900');
    expect(r.body.data).toMatchObject({ total: 101, more: true, partial: false });
    const p3 = (await s.request('POST', LIST, { serveName: 'auth', pageSize: 10, pageNum: 3 })).body.data;
    expect(p3.records[0].url).toBe('/api/big/199979');

    // nothing matches: the whole file would have to be read, the time limit answers first
    const slow = await s.request('POST', LIST, { serveName: 'auth', search: 'no-such-thing' });
    expect(slow.body.status).toBe(0);
    expect(slow.body.msg).toBe('搜索超时，仅显示已找到的结果');
    expect(slow.body.data).toMatchObject({ records: [], partial: true });
  });
});

describe('log monitor with INSTANCE_ID', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { INSTANCE_ID: 'node-a' } });
  });
  afterAll(() => s?.close());

  it("writes and reads this instance's own files; an unsafe id refuses the start", async () => {
    await s.request('POST', '/api/sys/var/searchList', {});
    await waitForRecords(s, {}, (r) => r[0]?.url === '/api/sys/var/searchList');
    expect(existsSync(logPath(s, 'platform-node-a.log'))).toBe(true);
    expect(existsSync(logPath(s, 'platform.log'))).toBe(false);
    expect(() => loadConfig({ INSTANCE_ID: '../x' })).toThrow(/INSTANCE_ID/);
  });
});
