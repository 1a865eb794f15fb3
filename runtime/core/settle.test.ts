import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './request';
import { setFeedback, getFeedback } from './feedback';
import { alreadyShown, settle } from './settle';

describe('settle', () => {
  it('resolves whatever the handler does, so a confirm closes and nothing is left unhandled', async () => {
    const error = vi.fn();
    const saved = { ...getFeedback() };
    setFeedback({ message: { ...saved.message, error } });
    try {
      // refused by the server: the request layer has shown the message already
      await expect(settle(() => Promise.reject(new ApiError('分组【a】下还有文档或分组，不能删除', 1)))()).resolves.toBeUndefined();
      // antd Form validateFields() and Formily validate(): the messages are under the fields
      await expect(settle(() => Promise.reject({ errorFields: [{ name: ['title'], errors: ['请输入标题'] }] }))()).resolves.toBeUndefined();
      await expect(settle(() => Promise.reject([{ messages: ['请输入名称'] }]))()).resolves.toBeUndefined();
      expect(error).not.toHaveBeenCalled();
      // a fault of ours is said (and logged)
      const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      await expect(settle(() => { throw new TypeError('x is undefined'); })()).resolves.toBeUndefined();
      expect(error).toHaveBeenCalledWith('操作失败：x is undefined');
      expect(log).toHaveBeenCalled();
      log.mockRestore();
    } finally {
      setFeedback(saved);
    }
  });

  it('passes the arguments on and waits for the handler', async () => {
    const seen: unknown[] = [];
    await settle(async (a: number, b: string) => {
      await new Promise((r) => setTimeout(r, 5));
      seen.push(a, b);
    })(1, 'x');
    expect(seen).toEqual([1, 'x']);
  });

  it('knows what was already shown', () => {
    expect(alreadyShown(new ApiError('x', 1))).toBe(true);
    expect(alreadyShown(Object.assign(new Error('canceled'), { name: 'CanceledError' }))).toBe(true);
    expect(alreadyShown(new Error('boom'))).toBe(false);
    expect(alreadyShown(undefined)).toBe(false);
  });
});
