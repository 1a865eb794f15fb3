// A page kept mounted behind another tab keeps the address it was shown at: an editor reading ?id= from useLocation
// does not see the other page's address (and load nothing, or another record, over its unsaved edits).
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation, useNavigate, useOutlet } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { addView, tagsStore } from '../state';
import { KeepAlive } from './BasicLayout';

function Page({ name }: { name: string }) {
  const { pathname, search } = useLocation();
  return <div data-testid={name}>{`${pathname}${search}`}</div>;
}

let go: (to: string) => void = () => undefined;
function Frame() {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  go = useNavigate();
  return (
    <KeepAlive current={pathname} cacheable>
      {outlet}
    </KeepAlive>
  );
}

describe('KeepAlive', () => {
  it('a hidden page answers its own address, the page in front the current one', async () => {
    tagsStore.set({ views: [] });
    addView({ fullPath: '/edit?id=5', pathname: '/edit', title: '编辑', cache: true });
    addView({ fullPath: '/list', pathname: '/list', title: '列表', cache: true });
    render(
      <MemoryRouter initialEntries={['/edit?id=5']}>
        <Routes>
          <Route element={<Frame />}>
            <Route path="/edit" element={<Page name="edit" />} />
            <Route path="/list" element={<Page name="list" />} />
          </Route>
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.getByTestId('edit').textContent).toBe('/edit?id=5');
    await act(async () => go('/list?pageNum=2'));
    expect(screen.getByTestId('list').textContent).toBe('/list?pageNum=2');
    // behind the list, the editor still reads its own id
    expect(screen.getByTestId('edit').textContent).toBe('/edit?id=5');
    await act(async () => go('/edit?id=7'));
    expect(screen.getByTestId('edit').textContent).toBe('/edit?id=7');
    expect(screen.getByTestId('list').textContent).toBe('/list?pageNum=2');
  });
});
