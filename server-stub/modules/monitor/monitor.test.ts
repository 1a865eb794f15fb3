import fs, { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../config.js';
import { logFiles } from '../../core/logs.js';
import { serverForSuite, startTestServer, testStores, type TestServer } from '../../testing/server.js';
import { instanceAt, interfaceAddresses, normalizeAddress, registryDir } from './instances.js';

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
  const s = serverForSuite({ store });

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

  it('counts the matching lines exactly, as wc -l / grep -c would (POST /count)', async () => {
    const COUNT = '/api/monitor/log/count';
    const file = logPath(s, 'auth.log');
    for (let i = 0; i < 7; i++) appendFileSync(file, pinoLine({ reqId: `cnt-${i}`, ip: i < 3 ? '10.9.9.9' : '10.9.9.8', method: 'GET', route: '/api/cnt', status: 200, ms: 1, msg: 'cnt-mark' }));
    appendFileSync(file, '\nplain CNT-MARK text\n\n');
    const lines = readFileSync(file, 'utf8').split('\n');
    const wc = lines.filter(Boolean).length; // wc -l, empty lines aside (they are no log lines)
    const all = (await s.request('POST', COUNT, { serveName: 'auth' })).body;
    expect(all).toMatchObject({ status: 0, data: { total: wc, exact: true } });
    expect((await s.request('POST', COUNT, { serveName: 'auth', search: 'cnt-MARK' })).body.data).toEqual({ total: 8, exact: true });
    expect((await s.request('POST', COUNT, { serveName: 'auth', ip: '10.9.9.9' })).body.data).toEqual({ total: 3, exact: true });
    expect((await s.request('POST', COUNT, { serveName: 'auth', ip: '10.9.9', search: 'cnt' })).body.data).toEqual({ total: 0, exact: true });
    // the page agrees: all 8 on one page, nothing more, so its total is exact too
    const page = (await s.request('POST', LIST, { serveName: 'auth', search: 'cnt-mark', pageSize: 10 })).body.data;
    expect(page).toMatchObject({ total: 8, more: false });
    expect(page.records).toHaveLength(8);
    // the same body rules as the list
    expect((await s.request('POST', COUNT, { serveName: '../auth' })).body.status).toBe(1);
    expect((await s.request('POST', COUNT, { search: 'x'.repeat(21) })).body.status).toBe(1);
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
  const s = serverForSuite({ env: { LOG_MAX_BYTES: '2048', LOG_KEEP: '2', LOG_SEARCH_MS: '200' } });

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
    // counting it: a search that cannot finish in time says so (a lower bound), never an invented total
    const counted = (await s.request('POST', '/api/monitor/log/count', { serveName: 'auth', search: 'big/1' })).body.data;
    expect(counted.exact).toBe(false);
    expect(counted.total).toBeLessThan(200_000);
  });

  it('counts lines across chunks, rotated files and a last line without its newline, as the reader reads them', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'logcount-'));
    try {
      const cur = path.join(dir, 'x.log');
      // ~2.5 MB of lines of every length around the 1 MB chunk edges, empty lines between some
      const parts: string[] = [];
      let n = 0;
      for (let i = 0, size = 0; size < 2_500_000; i++) {
        parts.push(`${'y'.repeat((i * 7919) % 3000)}${i}\n${i % 5 === 0 ? '\n' : ''}`);
        size += parts[i].length;
        n++;
      }
      writeFileSync(cur, `${parts.join('')}last-without-newline`);
      writeFileSync(`${cur}.1`, 'a\nb\n');
      const state = { timedOut: false };
      const { countLines, linesNewestFirst } = await import('./reader.js');
      const counted = await countLines([cur, `${cur}.1`, `${cur}.2`], Date.now() + 60_000, state);
      let read = 0;
      for await (const _ of linesNewestFirst([cur, `${cur}.1`], Date.now() + 60_000, { timedOut: false })) read++;
      expect(counted).toBe(n + 1 + 2);
      expect(counted).toBe(read);
      expect(state.timedOut).toBe(false);
      // past the deadline: stops, and says so
      const late = { timedOut: false };
      await countLines([cur], Date.now() - 1, late);
      expect(late.timedOut).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('log monitor with INSTANCE_ID', () => {
  const s = serverForSuite({ env: { INSTANCE_ID: 'node-a' } });

  it("writes and reads this instance's own files; an unsafe id or address refuses the start", async () => {
    await s.request('POST', '/api/sys/var/searchList', {});
    await waitForRecords(s, {}, (r) => r[0]?.url === '/api/sys/var/searchList');
    expect(existsSync(logPath(s, 'platform-node-a.log'))).toBe(true);
    expect(existsSync(logPath(s, 'platform.log'))).toBe(false);
    expect(() => loadConfig({ INSTANCE_ID: '../x' })).toThrow(/INSTANCE_ID/);
    for (const bad of ['../x', '10.0.0.1,host.example', '10.0.0.256', '10.0.0.1/24']) expect(() => loadConfig({ INSTANCE_ADDRESS: bad })).toThrow(/INSTANCE_ADDRESS/);
    expect(loadConfig({ INSTANCE_ADDRESS: ' 10.0.0.1, fd00::1 ' }).instanceAddresses).toEqual(['10.0.0.1', 'fd00::1']);
  });

  it('records itself with its interface addresses (loopback included); its own address names it, not a client', async () => {
    const rec = JSON.parse(readFileSync(path.join(registryDir(s.dataDir), 'node-a.json'), 'utf8'));
    expect(rec.id).toBe('node-a');
    expect(Math.abs(Date.now() - rec.lastSeen)).toBeLessThan(60_000);
    const expected = Object.values(os.networkInterfaces()).flatMap((l) => (l ?? []).map((i) => normalizeAddress(i.address)));
    expect([...rec.addresses].sort()).toEqual([...new Set(expected)].sort());
    expect(rec.addresses).toContain('127.0.0.1');
    expect(statSync(path.join(registryDir(s.dataDir), 'node-a.json')).mode & 0o777).toBe(0o600);
    // a line from another client: with ip = this server's loopback address every line of its file is shown
    appendFileSync(logPath(s, 'platform-node-a.log'), pinoLine({ service: 'platform', reqId: 'req-far', ip: '10.1.2.3', method: 'GET', route: '/api/far', status: 200, ms: 1, msg: 'request' }));
    const own = (await s.request('POST', LIST, { ip: '127.0.0.1', pageSize: 100 })).body.data;
    expect(own.instance).toBe('node-a');
    expect(own.records[0]).toMatchObject({ reqId: 'req-far', ip: '10.1.2.3' });
    expect(own.records.some((r: any) => r.ip === '127.0.0.1')).toBe(true);
  });
});

describe('log monitor: instances sharing one DATA_DIR, chosen by server ip', () => {
  let shared: string;
  const sharedLog = (name: string) => path.join(shared, 'logs', name);
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    shared = mkdtempSync(path.join(os.tmpdir(), 'console-shared-'));
    // one after the other: the second migrates and seeds the store the first created
    a = await startTestServer({ env: { DATA_DIR: shared, INSTANCE_ID: 'node-a', INSTANCE_ADDRESS: '10.9.0.1' } });
    b = await startTestServer({ env: { DATA_DIR: shared, INSTANCE_ID: 'node-b', INSTANCE_ADDRESS: '10.9.0.2,FD00::2' } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    if (shared) rmSync(shared, { recursive: true, force: true });
  });

  /** reqIds of a platform file's request lines, newest first, once it holds `n` of them. */
  async function reqIdsOf(file: string, n: number): Promise<string[]> {
    for (let i = 0; i < 50; i++) {
      const ids = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).reqId) : [];
      if (ids.length >= n) return ids.reverse();
      await new Promise((res) => setTimeout(res, 20));
    }
    throw new Error(`${file} never held ${n} lines`);
  }

  it("the ip of instance B shows B's lines (all of them), asked on A; A's own ip shows A's", async () => {
    for (let i = 0; i < 3; i++) await b.request('POST', '/api/sys/var/searchList', {});
    await a.request('POST', '/api/sys/var/delete?id=0');
    const bIds = await reqIdsOf(sharedLog('platform-node-b.log'), 3);
    const aIds = await reqIdsOf(sharedLog('platform-node-a.log'), 1);

    const viaB = (await a.request('POST', LIST, { ip: '10.9.0.2', pageSize: 100 })).body;
    expect(viaB.status).toBe(0);
    expect(viaB.data.instance).toBe('node-b');
    expect(viaB.data.records.map((r: any) => r.reqId)).toEqual(bIds);
    expect(viaB.data.records.every((r: any) => r.url === '/api/sys/var/searchList' && r.ip === '127.0.0.1')).toBe(true);
    // the same by B's other address, in another spelling; search still applies
    const v6 = (await a.request('POST', LIST, { ip: 'fd00:0:0:0:0:0:0:2', search: 'SEARCHLIST' })).body.data;
    expect(v6.instance).toBe('node-b');
    expect(v6.records).toHaveLength(bIds.length);

    const viaA = (await b.request('POST', LIST, { ip: '10.9.0.1', pageSize: 100 })).body.data;
    expect(viaA.instance).toBe('node-a');
    expect(viaA.records.map((r: any) => r.reqId)).toEqual(aIds);
    expect(viaA.records[0].url).toBe('/api/sys/var/delete');
    // no ip: the instance that answers shows its own
    const own = (await b.request('POST', LIST, { pageSize: 100 })).body.data;
    expect(own.instance).toBe('node-b');
    expect(own.records.map((r: any) => r.reqId)).toEqual(bIds);
  });

  it('an ip that is no recorded server address filters by client address, in the asking instance’s own files', async () => {
    appendFileSync(sharedLog('auth-node-a.log'), pinoLine({ reqId: 'req-on-a', ip: '10.1.2.3', method: 'GET', route: '/api/a', status: 200, ms: 1, msg: 'request' }));
    appendFileSync(sharedLog('auth-node-b.log'), pinoLine({ reqId: 'req-on-b', ip: '10.1.2.3', method: 'GET', route: '/api/b', status: 200, ms: 1, msg: 'request' }));
    const r = (await a.request('POST', LIST, { serveName: 'auth', ip: '10.1.2.3' })).body.data;
    expect(r.instance).toBe('node-a');
    expect(r.records.map((x: any) => x.reqId)).toEqual(['req-on-a']);
    expect((await b.request('POST', LIST, { serveName: 'auth', ip: '10.1.2.3' })).body.data.records.map((x: any) => x.reqId)).toEqual(['req-on-b']);
    // 127.0.0.1 is not among A's or B's recorded addresses here: it is the client address of every test request
    const local = (await a.request('POST', LIST, { serveName: 'auth', ip: '127.0.0.1', pageSize: 100 })).body.data;
    expect(local.records.length).toBeGreaterThan(0);
    expect(local.records.every((x: any) => x.ip === '127.0.0.1')).toBe(true);
  });

  it('a hostile ip, or a forged record, never reaches a file path', async () => {
    // records a reader must not trust: an id that is not its file name, a path as id, a name outside the pattern
    const dir = registryDir(shared);
    writeFileSync(path.join(dir, 'evil.json'), JSON.stringify({ id: '../../etc', addresses: ['10.6.6.6'], lastSeen: Date.now() }));
    writeFileSync(path.join(dir, 'liar.json'), JSON.stringify({ id: 'node-b', addresses: ['10.6.6.7'], lastSeen: Date.now() }));
    writeFileSync(path.join(dir, 'x..json'), JSON.stringify({ id: 'x.', addresses: ['10.6.6.8'], lastSeen: Date.now() }));
    writeFileSync(path.join(dir, 'big.json'), JSON.stringify({ id: 'big', addresses: ['10.6.6.9'], pad: 'x'.repeat(20_000) }));
    const hostile = ['../platform-node-b', '../../etc/passwd', 'node-b', 'platform-node-b.log', '/etc/passwd', '..%2f..%2fetc', '10.9.0.2/../../x', '10.9.0.2\\..\\x', 'instances/node-b.json', '10.6.6.6', '10.6.6.7', '10.6.6.8', '10.6.6.9', '*', '.'];
    const allowed = new Set([...logFiles(shared, 'platform', 5, 'node-a'), ...['node-a', 'node-b', 'evil', 'liar', 'big'].map((n) => path.join(dir, `${n}.json`))]);
    const opened: string[] = [];
    // every file the server opens while answering (reader and registry both open through fs.promises.open)
    const realOpen = fs.promises.open;
    const spy = vi.spyOn(fs.promises, 'open').mockImplementation(((file: fs.PathLike, ...rest: any[]) => {
      opened.push(String(file));
      return (realOpen as any)(file, ...rest);
    }) as typeof fs.promises.open);
    try {
      for (const ip of hostile) {
        const r = (await a.request('POST', LIST, { ip })).body;
        expect(r.status, ip).toBe(0);
        expect(r.data.instance, ip).toBe('node-a');
        expect(r.data.records, ip).toEqual([]);
      }
    } finally {
      spy.mockRestore();
    }
    expect(opened.length).toBeGreaterThan(0);
    expect(opened.filter((f) => !allowed.has(f))).toEqual([]);
    // NUL never gets that far: the input guard refuses it
    const nul = (await a.request('POST', LIST, { ip: '10.9.0.2\u0000/../x' })).body;
    expect(nul.status).toBe(1);
  });

  it('an address shared by several instances: the asking one first, then the one seen last', () => {
    const recs = [
      { id: 'x', addresses: ['10.0.0.9', '127.0.0.1'], lastSeen: 1 },
      { id: 'y', addresses: ['10.0.0.9', '127.0.0.1'], lastSeen: 3 },
      { id: 'z', addresses: ['10.0.0.9'], lastSeen: 2 },
    ];
    expect(instanceAt(recs, '10.0.0.9', 'none')?.id).toBe('y');
    expect(instanceAt(recs, '10.0.0.9', 'x')?.id).toBe('x');
    expect(instanceAt(recs, '::ffff:127.0.0.1', 'z')?.id).toBe('y');
    expect(instanceAt(recs, '10.0.0.10', 'x')).toBeUndefined();
    expect(instanceAt(recs, '../10.0.0.9', 'x')).toBeUndefined();
    expect(interfaceAddresses()).toContain('127.0.0.1');
    // one spelling per address; anything else is no address at all
    expect(['FD00:0:0:0:0:0:0:2', '::ffff:10.0.0.1', '::ffff:a00:1', 'fe80::1%eth0', ' 10.0.0.1 '].map(normalizeAddress)).toEqual(['fd00::2', '10.0.0.1', '10.0.0.1', 'fe80::1', '10.0.0.1']);
    for (const bad of ['../x', '10.0.0.256', '1.2.3', '[::1]', '', 'node-b']) expect(normalizeAddress(bad)).toBe('');
  });
});
