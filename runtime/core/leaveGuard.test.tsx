// The one registry of unsaved edits: a guard lives exactly while its editor is dirty and mounted, belongs to the
// view it is rendered in, and makes the browser ask on reload / close.
import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dirtyPaths, guardStore, guardsOn, onPageHide, useLeaveGuard, ViewPathContext } from './leaveGuard';

function Editor({ dirty, discard, unload }: { dirty: boolean; discard?: () => void; unload?: () => void }) {
  useLeaveGuard(dirty, { discard, unload });
  return null;
}

const unloadEvent = () => {
  const e = new Event('beforeunload', { cancelable: true }) as BeforeUnloadEvent;
  window.dispatchEvent(e);
  return e.defaultPrevented;
};

afterEach(() => guardStore.set([]));

describe('leave guards', () => {
  it('registers while dirty, under the view it is rendered in, and goes when clean or unmounted', () => {
    const view = (dirty: boolean) => (
      <ViewPathContext.Provider value="/datav/screen/design">
        <Editor dirty={dirty} />
      </ViewPathContext.Provider>
    );
    const r = render(view(false));
    expect(dirtyPaths()).toEqual([]);
    r.rerender(view(true));
    expect(dirtyPaths()).toEqual(['/datav/screen/design']);
    expect(guardsOn(['/wiki', '/datav/screen/design'])).toHaveLength(1);
    r.rerender(view(false));
    expect(dirtyPaths()).toEqual([]);
    r.rerender(view(true));
    r.unmount();
    expect(dirtyPaths()).toEqual([]);
  });

  it('outside the shell the view is the address the editor was mounted at', () => {
    window.history.pushState(null, '', '/form/fill');
    render(<Editor dirty />);
    window.history.pushState(null, '', '/elsewhere');
    expect(dirtyPaths()).toEqual(['/form/fill']);
  });

  it('the browser asks on reload or close only while something is unsaved', () => {
    expect(unloadEvent()).toBe(false);
    const r = render(<Editor dirty />);
    expect(unloadEvent()).toBe(true);
    r.rerender(<Editor dirty={false} />);
    expect(unloadEvent()).toBe(false);
  });

  it('when the page unloads after asking, every guard undoes its server-side writes; the newest actions are used', () => {
    const first = vi.fn();
    const second = vi.fn();
    const r = render(<Editor dirty unload={first} />);
    r.rerender(<Editor dirty unload={second} />);
    onPageHide();
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
    expect(guardStore.get()[0].actions().unload).toBe(second);
  });
});
