// Cron expressions of 定时任务: five fields (minute hour day month weekday — nothing more often than once a minute),
// read by cron-parser in the job's time zone, described in Chinese by cronstrue. A expression that cannot be read is
// refused with the reason in Chinese.
import { CronExpressionParser } from 'cron-parser';
import cronstrue from 'cronstrue/i18n.js';
import { BizError } from '../../core/envelope.js';

const FIELDS = ['分钟', '小时', '日', '月', '星期'] as const;
const RANGES = ['0–59', '0–23', '1–31', '1–12', '0–7（0 和 7 为星期日）'] as const;

/** A time zone this runtime knows (IANA name), or false. */
export function knownZone(tz: string): boolean {
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+){0,2}$|^UTC$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Why `expr` cannot be a job's schedule in `tz`, in Chinese; null when it can. */
export function cronProblem(expr: string, tz: string): string | null {
  const text = expr.trim();
  if (!text) return '请输入 Cron 表达式';
  if (text.length > 120) return 'Cron 表达式不能超过 120 个字符';
  if (!knownZone(tz)) return `未知的时区：${tz.slice(0, 60)}`;
  const parts = text.split(/\s+/);
  if (parts.length === 6) return 'Cron 表达式不支持秒：最短每分钟运行一次，请写 5 段（分 时 日 月 周）';
  if (parts.length !== 5) return `Cron 表达式须为 5 段（分 时 日 月 周），这里有 ${parts.length} 段`;
  for (let i = 0; i < 5; i++) {
    if (!/^[0-9A-Za-z*?,/#LW-]+$/.test(parts[i]!)) return `第 ${i + 1} 段（${FIELDS[i]}）含有不允许的字符：${parts[i]!.slice(0, 20)}`;
  }
  try {
    const parsed = CronExpressionParser.parse(text, { tz, currentDate: new Date() });
    parsed.next();
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const range = /got (?:value|range) (\S+) expected range/.exec(msg);
    if (range) {
      const at = parts.findIndex((p) => p.split(/[,/]/).includes(range[1]!) || p.split(/[,/-]/).includes(range[1]!));
      return at >= 0 ? `第 ${at + 1} 段（${FIELDS[at]}）的 ${range[1]} 超出范围 ${RANGES[at]}` : `取值 ${range[1]} 超出范围`;
    }
    if (/loop limit|time span|explicit day of month/i.test(msg)) return 'Cron 表达式永远不会运行（所写的日期不存在，如 2 月 30 日）';
    const odd = /Invalid characters, got value: (\S+)/.exec(msg);
    if (odd) return `Cron 表达式含有无法识别的内容：${odd[1]!.slice(0, 20)}`;
    return `Cron 表达式无法解析：${msg.slice(0, 120)}`;
  }
  return null;
}

/** The next `n` times (epoch ms) after `after`. */
export function nextTimes(expr: string, tz: string, after: number, n: number): number[] {
  const parsed = CronExpressionParser.parse(expr.trim(), { tz, currentDate: new Date(after) });
  return parsed.take(n).map((d) => d.getTime());
}

/** The next due time after `after`, as a whole minute since the epoch (the job table's `next_due`). */
export const nextDue = (expr: string, tz: string, after: number): number => Math.floor(nextTimes(expr, tz, after, 1)[0]! / 60_000);

/** What `expr` means in Chinese: 每隔 5 分钟, 在 09:00 和 18:59 之间, 星期一至星期五. */
export function describeCron(expr: string): string {
  try {
    return cronstrue.toString(expr.trim(), { locale: 'zh_CN', use24HourTimeFormat: true, verbose: false });
  } catch {
    return '';
  }
}

/** `ms` as wall time in `tz`: 'YYYY-MM-DD HH:mm'. */
export function wallTime(ms: number, tz: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(ms));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}`;
}

/** Refuses what cronProblem finds (BizError). */
export function assertCron(expr: string, tz: string): void {
  const why = cronProblem(expr, tz);
  if (why) throw new BizError(why);
}
