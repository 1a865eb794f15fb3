import { AxiosHeaders, AxiosError, type AxiosAdapter } from 'axios';
import { renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { builtinDicts, dictLabel, fetchDicts, useDict } from './dicts';
import { setFeedback } from './feedback';
import { request } from './request';

const error = vi.fn();
const fail: AxiosAdapter = async (config) => {
  throw new AxiosError('boom', 'ERR_BAD_RESPONSE', config, {}, {
    status: 500, statusText: 'x', data: {}, headers: new AxiosHeaders(), config,
  });
};
const wrapper = ({ children }: { children: ReactNode }) =>
  createElement(SWRConfig, { value: { provider: () => new Map() } }, children);

beforeEach(() => {
  error.mockClear();
  setFeedback({ message: { error, success: vi.fn(), warning: vi.fn(), info: vi.fn(), loading: vi.fn() } as never });
});

describe('dicts', () => {
  it('has the built-in dictionaries from schemas/dicts', () => {
    expect(builtinDicts.YES_OR_NO.map((i) => i.label)).toEqual(['是', '否']);
    expect(builtinDicts.ENV_TYPE.length).toBeGreaterThan(0);
  });

  it('falls back to the built-in entries, silently, when selectMapData fails', async () => {
    request.defaults.adapter = fail;
    await expect(fetchDicts(['YES_OR_NO', 'NOPE'])).resolves.toEqual({ YES_OR_NO: builtinDicts.YES_OR_NO, NOPE: [] });
    expect(error).not.toHaveBeenCalled();
    const { result } = renderHook(() => useDict('YES_OR_NO'), { wrapper });
    await waitFor(() => expect(result.current).toEqual(builtinDicts.YES_OR_NO));
  });

  it('uses the server answer when the call works', async () => {
    const seen: unknown[] = [];
    request.defaults.adapter = async (config) => {
      seen.push(JSON.parse(config.data as string));
      return { data: { status: 0, msg: '', data: { DB_TYPE: [{ value: 'mysql', label: 'MySQL' }] } }, status: 200, statusText: 'OK', headers: new AxiosHeaders(), config };
    };
    const { result } = renderHook(() => useDict('DB_TYPE'), { wrapper });
    await waitFor(() => expect(result.current).toEqual([{ value: 'mysql', label: 'MySQL' }]));
    expect(seen[0]).toEqual(['DB_TYPE']);
  });

  it('dictLabel finds labels, tree children and pipe-separated values', () => {
    const items = [
      { value: 1, label: '是' },
      { value: 0, label: '否' },
      { value: 'p', label: '父', children: [{ value: 'c', label: '子' }] },
    ];
    expect(dictLabel(items, 1)).toBe('是');
    expect(dictLabel(items, '0')).toBe('否');
    expect(dictLabel(items, 'c')).toBe('子');
    expect(dictLabel(items, '1|0')).toBe('是|否');
    expect(dictLabel(items, [1, 'x'])).toBe('是|x');
    expect(dictLabel(items, null)).toBe('');
  });
});
