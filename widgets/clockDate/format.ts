const WEEK = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'];
const pad = (n: number) => String(n).padStart(2, '0');

/** `date` in local time by a pattern of YYYY MM DD HH mm ss (other characters kept); with `week`, its 星期 after it. */
export function formatClock(date: Date, pattern: string, week: boolean): string {
  const parts: Record<string, string> = {
    YYYY: String(date.getFullYear()),
    MM: pad(date.getMonth() + 1),
    DD: pad(date.getDate()),
    HH: pad(date.getHours()),
    mm: pad(date.getMinutes()),
    ss: pad(date.getSeconds()),
  };
  const text = pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (t) => parts[t]);
  return week ? `${text} ${WEEK[date.getDay()]}` : text;
}
