// The shell's side of the leave guard: every navigation away from a view with unsaved edits and every tab close
// asks the one question (取消 / 不保存 / 保存); 不保存 runs the editor's discard, 保存 its save.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { guardStore, useLeaveGuard, ViewPathContext, DISCARD_CONFIRM } from '../core/leaveGuard';
import { TagsView } from './layout/TagsView';
import { useConfirmLeave, useLeave } from '../ui/leave';
import { addView, refreshStore, tagsStore } from './state';

function Editor({ path, save, discard }: { path: string; save?: () => Promise<boolean>; discard?: () => void }) {
  return (
    <ViewPathContext.Provider value={path}>
      <Dirty save={save} discard={discard} />
    </ViewPathContext.Provider>
  );
}
function Dirty({ save, discard }: { save?: () => Promise<boolean>; discard?: () => void }) {
  useLeaveGuard(true, { save, discard });
  return null;
}

function Shell({ editors }: { editors: JSX.Element }) {
  const leave = useConfirmLeave();
  const { pathname } = useLocation();
  return (
    <>
      <TagsView />
      <div data-testid="at">{pathname}</div>
      <button onClick={() => leave(() => window.history.pushState(null, '', '/b'))}>menu</button>
      <NavTo />
      {editors}
    </>
  );
}
function NavTo() {
  const leave = useConfirmLeave();
  const { pathname } = useLocation();
  return <button onClick={() => leave(() => (document.body.dataset.went = `${pathname}→/b`))}>go</button>;
}

const mount = (editors: JSX.Element, at = '/a') =>
  render(
    <AntApp>
      <MemoryRouter initialEntries={[at]}>
        <Shell editors={editors} />
      </MemoryRouter>
    </AntApp>,
  );

const question = () => screen.findByText(DISCARD_CONFIRM);
const answer = async (name: string) => {
  await question();
  fireEvent.click(screen.getByRole('button', { name }));
  await act(async () => undefined);
};

beforeEach(() => {
  delete document.body.dataset.went;
  tagsStore.set({
    views: [
      { fullPath: '/index', pathname: '/index', title: '首页', cache: true, affix: true },
      { fullPath: '/a', pathname: '/a', title: '大屏设计器', cache: true },
      { fullPath: '/c?id=1', pathname: '/c', title: 'Wiki文档', cache: true },
    ],
  });
});
afterEach(() => guardStore.set([]));

describe('leaving a view with unsaved edits', () => {
  it('a clean view is left at once', async () => {
    mount(<Editor path="/c" />);
    fireEvent.click(screen.getByText('go'));
    expect(document.body.dataset.went).toBe('/a→/b');
  });

  it('asks first; 取消 stays and keeps the edits', async () => {
    const discard = vi.fn();
    mount(<Editor path="/a" discard={discard} />);
    fireEvent.click(screen.getByText('go'));
    await answer('取 消');
    expect(document.body.dataset.went).toBeUndefined();
    expect(discard).not.toHaveBeenCalled();
    expect(guardStore.get()).toHaveLength(1);
  });

  it('不保存 discards, goes, and reloads the view from its saved state', async () => {
    const discard = vi.fn();
    const before = refreshStore.get()['/a'] ?? 0;
    mount(<Editor path="/a" discard={discard} save={async () => true} />);
    fireEvent.click(screen.getByText('go'));
    await answer('不保存');
    await waitFor(() => expect(document.body.dataset.went).toBe('/a→/b'));
    expect(discard).toHaveBeenCalledTimes(1);
    expect(refreshStore.get()['/a']).toBe(before + 1);
    expect(guardStore.get()).toHaveLength(0);
  });

  it('保存 saves and goes; a failed save stays', async () => {
    const save = vi.fn().mockResolvedValueOnce(false).mockResolvedValueOnce(true);
    mount(<Editor path="/a" save={save} />);
    fireEvent.click(screen.getByText('go'));
    await answer('保 存');
    expect(document.body.dataset.went).toBeUndefined();
    fireEvent.click(screen.getByText('go'));
    await answer('保 存');
    await waitFor(() => expect(document.body.dataset.went).toBe('/a→/b'));
    expect(save).toHaveBeenCalledTimes(2);
  });

  it('without a save the question offers 取消 and 不保存 only', async () => {
    mount(<Editor path="/a" />);
    fireEvent.click(screen.getByText('go'));
    await question();
    expect(screen.queryByRole('button', { name: '保 存' })).toBeNull();
    expect(screen.getByRole('button', { name: '不保存' })).toBeInTheDocument();
    await answer('取 消');
  });

  it('closing a tab whose view is dirty asks even when it is not the current one, naming it', async () => {
    const discard = vi.fn();
    mount(<Editor path="/c" discard={discard} />);
    const tab = screen.getByText('Wiki文档').closest('.ant-tabs-tab')!;
    fireEvent.click(tab.querySelector('.ant-tabs-tab-remove')!);
    expect((await screen.findAllByText('提示：「Wiki文档」')).length).toBeGreaterThan(0);
    expect(tagsStore.get().views.some((v) => v.pathname === '/c')).toBe(true);
    await answer('不保存');
    await waitFor(() => expect(tagsStore.get().views.some((v) => v.pathname === '/c')).toBe(false));
    expect(discard).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('at').textContent).toBe('/a');
  });

  it('a tab-bar click away from a dirty view asks; 取消 stays on it', async () => {
    mount(<Editor path="/a" />);
    fireEvent.click(screen.getByText('Wiki文档'));
    await answer('取 消');
    expect(screen.getByTestId('at').textContent).toBe('/a');
    fireEvent.click(screen.getByText('Wiki文档'));
    await answer('不保存');
    await waitFor(() => expect(screen.getByTestId('at').textContent).toBe('/c'));
  });
});

function Back() {
  const leave = useLeave('/datav/screen', false, undefined, { origin: true });
  return <button onClick={() => leave({ force: true })}>返回</button>;
}

describe('a full-window editor going back (issue 35 §7)', () => {
  const mountEditor = () =>
    render(
      <AntApp>
        <MemoryRouter initialEntries={['/datav/screen/design?pageId=1']}>
          <ViewPathContext.Provider value="/datav/screen/design">
            <Back />
            <Where />
          </ViewPathContext.Provider>
        </MemoryRouter>
      </AntApp>,
    );
  function Where() {
    const { pathname, search } = useLocation();
    return <div data-testid="at">{pathname + search}</div>;
  }

  it('goes back to the console page it was opened from, reloaded, and closes its tab', async () => {
    addView({ fullPath: '/datav/screen/design?pageId=1', pathname: '/datav/screen/design', title: '大屏设计器', cache: true, from: '/index?tab=2' });
    // a later visit without an origin (a reload) keeps the one it had
    addView({ fullPath: '/datav/screen/design?pageId=1', pathname: '/datav/screen/design', title: '大屏设计器', cache: true });
    const before = refreshStore.get()['/index'] ?? 0;
    mountEditor();
    fireEvent.click(screen.getByRole('button', { name: '返回' }));
    await waitFor(() => expect(screen.getByTestId('at').textContent).toBe('/index?tab=2'));
    expect(refreshStore.get()['/index']).toBe(before + 1);
    expect(tagsStore.get().views.some((v) => v.pathname === '/datav/screen/design')).toBe(false);
  });

  it('opened by its address (no origin): back to its list', async () => {
    mountEditor();
    fireEvent.click(screen.getByRole('button', { name: '返回' }));
    await waitFor(() => expect(screen.getByTestId('at').textContent).toBe('/datav/screen'));
  });
});

