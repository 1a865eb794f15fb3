// One way a failed action ends. Handlers given to antd (a confirm's or a dialog's onOk, a Popconfirm's onConfirm,
// a button's onClick) are wrapped in settle(): whatever the call answers, the handler resolves, so
//  - a confirm box closes when the server refuses (the request layer has already shown the server's message),
//  - a dialog whose fields are invalid stays open with the messages under its fields,
//  - and nothing reaches the page as an unhandled rejection (antd re-throws what onOk rejects with).
import { ApiError } from './request';
import { getFeedback } from './feedback';

/** A failure the user has already been shown: a refusal reported by the request layer, or a form's field errors. */
export function alreadyShown(e: unknown): boolean {
  if (e instanceof ApiError) return true;
  if (Array.isArray(e)) return true; // Formily's validate() rejects with the fields' feedback
  if (typeof e !== 'object' || e === null) return false;
  if ('errorFields' in e) return true; // antd Form's validateFields()
  return (e as { name?: unknown }).name === 'CanceledError'; // an aborted request: nothing to say
}

/**
 * `fn` as a handler that never rejects. A failure already shown ends quietly; anything else is a fault of ours,
 * shown as 操作失败 with its reason (and logged, so a browser test notices it).
 */
export function settle<A extends unknown[]>(fn: (...args: A) => unknown): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (e) {
      if (alreadyShown(e)) return;
      getFeedback().message.error(`操作失败：${e instanceof Error ? e.message : String(e)}`);
      console.error(e);
    }
  };
}
