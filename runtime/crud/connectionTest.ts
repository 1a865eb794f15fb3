// A connection test (a row's 测试 action or a dialog's 测试连接 button): the server answers a boolean, and after a
// failure its message says why (连接失败：等待超时（3秒内没有应答）, 连接失败：账号或密码错误 …), which is what the user
// reads. The browser waits as long as the declaration says (`timeout`, seconds), so a test that may legitimately
// take as long as the record's own wait limit is answered by the server, never cut by the request layer's own timeout.
import type { CallOptions, CrudServices } from './services';
import { msg } from './messages';

export interface ConnectionTestDecl {
  success?: string;
  failure?: string;
  /** seconds the browser waits */
  timeout?: number;
}

/** What to tell the user: ok and the text. Rejects when the call failed (the request layer showed why). */
export async function runConnectionTest(services: CrudServices, method: 'GET' | 'POST', path: string, opts: CallOptions, decl: ConnectionTestDecl): Promise<{ ok: boolean; text: string }> {
  const call = { ...opts, ...(decl.timeout ? { timeoutMs: decl.timeout * 1000 } : {}) };
  const answer = services.requestAnswer ? await services.requestAnswer<unknown>(method, path, call) : { data: await services.request<unknown>(method, path, call), msg: '' };
  const ok = !(answer.data === false || answer.data === 0 || answer.data === null);
  if (ok) return { ok, text: decl.success ?? msg('connectSuccess') };
  const failure = decl.failure ?? msg('connectFail');
  // the server's reason, worded after the declared failure text (连接失败：<reason>); a bare answer keeps the declared text
  const reason = failureReason(answer.msg);
  return { ok, text: reason ? `${failure}：${reason}` : failure };
}

/** The reason in a failed test's message: what follows 「…：」, or the whole message when it is not the bare failure. */
export function failureReason(message: string): string {
  const m = message.trim();
  if (!m) return '';
  const i = m.indexOf('：');
  if (i >= 0) return m.slice(i + 1).trim();
  return m === msg('connectFail') ? '' : m;
}
