// Log monitor (spec part 1 §2 "Log monitor", §3 "Log query", §7 "Logs"): POST /api/monitor/log/searchList.
// The file is always chosen from the SERVER_NAME dictionary, never from a path in the request; it is
// read from its end (see reader.ts), so the newest page costs the same whatever the file's size.
// With INSTANCE_ID, an `ip` that is a recorded server address selects that instance's files (instances.ts).
import { BizError, ok } from '../../core/envelope.js';
import { logFiles, SERVICES } from '../../core/logs.js';
import type { ServerModule, ServiceName } from '../../core/module.js';
import { toRecord, type LogRecord } from './format.js';
import { instanceAt, interfaceAddresses, readRegistry, recordInstance, REFRESH_MS } from './instances.js';
import { countLines, linesNewestFirst, type ScanState } from './reader.js';

export const LOG_PAGE_SIZES = [10, 50, 100];
export const MSG_TIMED_OUT = '搜索超时，仅显示已找到的结果';

export interface LogQuery {
  pageNum?: number;
  pageSize?: number;
  serveName?: string;
  ip?: string | null;
  search?: string | null;
}

export interface LogPage {
  records: LogRecord[];
  /**
   * Matching lines seen, plus 1 when at least one more exists after this page (a lower bound, exact when
   * `more` is false): the page never reads further than it shows. The exact number comes from `/count`.
   */
  total: number;
  /** At least one more matching line follows this page. */
  more: boolean;
  /** The time limit cut the scan short before the page was full. */
  partial: boolean;
}

/** A page as the route answers it: which instance's files were read (INSTANCE_ID), null without one. */
export interface LogAnswer extends LogPage {
  instance: string | null;
}

/** The newest-first page of matching lines of the given files. */
export async function searchLogs(files: string[], q: Required<Pick<LogQuery, 'pageNum' | 'pageSize'>> & LogQuery, timeLimitMs: number): Promise<LogPage> {
  const skip = (q.pageNum - 1) * q.pageSize;
  const needle = q.search?.trim().toLowerCase() || '';
  const ip = q.ip?.trim() || '';
  const state: ScanState = { timedOut: false };
  const records: LogRecord[] = [];
  let matched = 0;
  let more = false;
  for await (const raw of linesNewestFirst(files, Date.now() + timeLimitMs, state)) {
    const rec = toRecord(raw);
    if (ip && rec.ip !== ip) continue;
    // plain text, case-insensitive, on the readable line: no pattern from the user ever runs
    if (needle && !rec.line.toLowerCase().includes(needle)) continue;
    if (records.length === q.pageSize) {
      more = true;
      break;
    }
    matched++;
    if (matched > skip) records.push(rec);
  }
  const full = records.length === q.pageSize;
  // the page is full but the look for one more ran out of time: assume there is more
  if (state.timedOut && full) more = true;
  return { records, total: matched + (more ? 1 : 0), more, partial: state.timedOut && !full };
}

/** How many lines match: `exact` when every file was read to its beginning in time, else a lower bound. */
export interface LogCount {
  total: number;
  exact: boolean;
}

/**
 * The number of matching lines of the given files, within the time limit. Without a filter it counts
 * newline bytes (no line is decoded); with one, each line is matched as the page matches it (an `ip` only
 * ever occurs in a line's text, so lines without it are not parsed).
 */
export async function countLogs(files: string[], q: Pick<LogQuery, 'ip' | 'search'>, timeLimitMs: number): Promise<LogCount> {
  const needle = q.search?.trim().toLowerCase() || '';
  const ip = q.ip?.trim() || '';
  const deadline = Date.now() + timeLimitMs;
  const state: ScanState = { timedOut: false };
  if (!needle && !ip) {
    const total = await countLines(files, deadline, state);
    return { total, exact: !state.timedOut };
  }
  let total = 0;
  for await (const raw of linesNewestFirst(files, deadline, state)) {
    if (ip && !raw.includes(ip)) continue;
    const rec = toRecord(raw);
    if (ip && rec.ip !== ip) continue;
    if (needle && !rec.line.toLowerCase().includes(needle)) continue;
    total++;
  }
  return { total, exact: !state.timedOut };
}

export const monitorModule: ServerModule = {
  name: 'monitor',
  prefix: '/api/monitor/log',
  service: 'admin',
  plugin: async (app) => {
    const { config } = app.ctx;
    const dict = app.ctx.schemas.dicts.SERVER_NAME as { items: { value: string }[] } | undefined;
    const selfId = config.instanceId;
    if (selfId) {
      // record this instance (and refresh lastSeen) so that the others' monitors can select it by address
      const addresses = config.instanceAddresses ?? interfaceAddresses();
      const record = () => recordInstance(config.dataDir, selfId, addresses).catch((e) => app.ctx.log.warn({ err: String(e) }, 'instance record not written'));
      await record();
      const timer = setInterval(record, REFRESH_MS);
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
    }
    const names = (dict?.items ?? []).map((i) => i.value).filter((v): v is ServiceName => (SERVICES as string[]).includes(v));
    const body = {
      type: 'object',
      title: '日志查询',
      properties: {
        pageNum: { type: 'integer', minimum: 1, maximum: 100000, default: 1, title: '页码' },
        pageSize: { type: 'integer', enum: LOG_PAGE_SIZES, default: 50, title: '每页条数' },
        serveName: { type: 'string', enum: names, default: 'platform', title: '服务名称' },
        ip: { type: ['string', 'null'], maxLength: 64, title: 'IP地址' },
        search: { type: ['string', 'null'], maxLength: 20, title: '搜索' },
      },
    };

    /** The files a query reads and the client address that still filters (none when it named an instance). */
    const target = async (q: LogQuery) => {
      const serveName = q.serveName ?? 'platform';
      // the schema already refused anything else; the file name is built only from a dictionary value
      if (!names.includes(serveName as ServiceName)) throw new BizError('服务名称不存在');
      // a recorded server address names an instance: its files, all their lines; any other ip is a client address
      const byAddress = selfId && q.ip ? instanceAt(await readRegistry(config.dataDir), q.ip, selfId) : undefined;
      const instance = byAddress?.id ?? selfId;
      return { files: logFiles(config.dataDir, serveName as ServiceName, config.logKeep, instance), ip: byAddress ? null : q.ip, instance: instance ?? null };
    };

    app.post<{ Body: LogQuery }>('/searchList', { config: { perm: 'monitor:log:list' }, schema: { body } }, async (req) => {
      const q = req.body ?? {};
      const { files, ip, instance } = await target(q);
      const page = await searchLogs(files, { ...q, ip, pageNum: q.pageNum ?? 1, pageSize: q.pageSize ?? 50 }, config.logSearchMs);
      const answer: LogAnswer = { ...page, instance };
      return ok(answer, page.partial ? MSG_TIMED_OUT : '查询成功');
    });

    // the list's total, asked once per query (not per page): the page itself never reads further than it shows
    app.post<{ Body: LogQuery }>('/count', { config: { perm: 'monitor:log:list' }, schema: { body } }, async (req) => {
      const q = req.body ?? {};
      const { files, ip } = await target(q);
      return ok(await countLogs(files, { ip, search: q.search }, config.logSearchMs), '查询成功');
    });
  },
};
