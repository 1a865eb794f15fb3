// 不保存 in a designer deletes the widgets dropped since the save (widget/add created them at the drop). A delete that
// does not get through stays remembered and is done before the next read of that kind's widgets; a save forgets.
import { AxiosHeaders, type AxiosAdapter } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { request } from '../core/request';
import { DISCARD_KEY, discardOnUnload, discardWidgets, flushDiscarded, forgetDiscarded, pendingDiscards } from './discard';
import { designerServices } from './services';

let deleted: string[] = [];
let down = false;
const server: AxiosAdapter = async (config) => {
  if (down) throw Object.assign(new Error('Network Error'), { config, isAxiosError: true, code: 'ERR_NETWORK' });
  const id = String((config.params as { id?: string } | undefined)?.id ?? '');
  const reply = (status: number, msg: string, data: unknown = null) => ({ data: { status, msg, data }, status: 200, statusText: 'OK', headers: new AxiosHeaders(), config });
  if (config.url?.endsWith('/widget/delete')) {
    if (id === 'gone') return reply(1, '组件不存在');
    deleted.push(`${config.url}?${id}`);
    return reply(0, '删除成功');
  }
  if (config.url?.endsWith('/widget/select')) return reply(0, '', []);
  if (config.url?.endsWith('/widget/update')) return reply(0, '保存成功', JSON.parse(config.data as string).widgets);
  return reply(0, '');
};

beforeEach(() => {
  deleted = [];
  down = false;
  localStorage.clear();
  request.defaults.adapter = server;
});
afterEach(() => vi.unstubAllGlobals());

describe('discarding widgets created since the save', () => {
  it('deletes each one on the server and keeps nothing pending', async () => {
    await discardWidgets('/datav/screen', ['w1', 'w2']);
    expect(deleted.sort()).toEqual(['/datav/screen/widget/delete?w1', '/datav/screen/widget/delete?w2']);
    expect(localStorage.getItem(DISCARD_KEY)).toBeNull();
  });

  it('a widget the server no longer has counts as gone', async () => {
    await discardWidgets('/jimu/form', ['gone']);
    expect(pendingDiscards('/jimu/form')).toEqual([]);
  });

  it('a delete that does not get through is done before the next read of that kind', async () => {
    down = true;
    await discardWidgets('/datav/screen', ['w1']);
    expect(pendingDiscards('/datav/screen')).toEqual(['w1']);
    down = false;
    await designerServices('form').loadWidgets('3');
    expect(deleted).toEqual([]); // another kind: untouched
    await designerServices('screen').loadWidgets('3');
    expect(deleted).toEqual(['/datav/screen/widget/delete?w1']);
    expect(pendingDiscards('/datav/screen')).toEqual([]);
  });

  it('on unload the deletes go out with keepalive and stay remembered until a later read', async () => {
    const fetch = vi.fn().mockResolvedValue(new Response('{}'));
    vi.stubGlobal('fetch', fetch);
    localStorage.setItem('dsc.token', 'tok');
    discardOnUnload('/datav/screen', ['w 1']);
    expect(fetch).toHaveBeenCalledWith('/api/datav/screen/widget/delete?id=w%201', expect.objectContaining({ keepalive: true, headers: expect.objectContaining({ Authorization: 'Bearer tok' }) }));
    expect(pendingDiscards('/datav/screen')).toEqual(['w 1']);
    await flushDiscarded('/datav/screen');
    expect(deleted).toEqual(['/datav/screen/widget/delete?w 1']);
  });

  it('a widget saved again is not deleted later', async () => {
    down = true;
    await discardWidgets('/datav/screen', ['w1', 'w2']);
    down = false;
    await designerServices('screen').saveWidgets('3', [{ id: 'w1', pageId: '3', widgetName: 'text', widgetTitle: 't', icon: '', widgetProps: {} } as never]);
    expect(pendingDiscards('/datav/screen')).toEqual(['w2']);
    forgetDiscarded(['w2']);
    expect(localStorage.getItem(DISCARD_KEY)).toBeNull();
  });
});
