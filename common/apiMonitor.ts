// API 监控 (issue 25 §5): the shape of what the monitor's calls answer, one copy for the server
// (server-stub/modules/apiplatform/monitor.ts) and the page (runtime/pages/ApiMonitor).

/** The spans the monitor shows: the last hour (a point a minute), day (15 minutes) or week (an hour). */
export type MonitorRange = 'hour' | 'day' | 'week';

/** The figures of a set of calls. */
export interface CallFigures {
  calls: number;
  errors: number;
  /** percent, one decimal; null without calls */
  errorRate: number | null;
  /** milliseconds, read off the latency histogram; null without calls */
  p50: number | null;
  p95: number | null;
  avg: number | null;
  /** percent, one decimal; null without calls */
  cacheHitRate: number | null;
}

/** An API's alert rule: the metric above `threshold` (percent or ms) over the last `minutes` minutes. */
export interface AlertRule {
  apiId: number;
  metric: 'errorRate' | 'p95';
  threshold: number;
  minutes: number;
  enabled: boolean;
  /** the 通知渠道 told when it fires and when it recovers */
  channelIds?: number[];
}

export interface AlertState {
  rule: AlertRule;
  firing: boolean;
  /** the metric's value over the rule's span (null: no calls in it) */
  value: number | null;
}

/** monitor/overview's answer. */
export interface MonitorOverview {
  range: MonitorRange;
  /** minutes per point */
  step: number;
  from: string;
  to: string;
  totals: CallFigures;
  series: Array<CallFigures & { time: string }>;
  apis: Array<CallFigures & { apiId: number; apiName: string; apiComment: string; alert: AlertState | null }>;
  keys: Array<CallFigures & { keyId: number; keyName: string }>;
}

/** One of monitor/slow's records: parameters as JSON text, a secret's value as ******. */
export interface SlowCall {
  /** the call's own id (two calls of one API in one second with the same time are two rows) */
  id: number;
  apiId: number;
  apiName: string;
  keyId: number;
  keyName: string;
  time: string;
  ms: number;
  ok: boolean;
  params: string;
}
