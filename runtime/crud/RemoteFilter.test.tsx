import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CrudServicesContext } from './services';
import { RemoteFilter } from './RemoteFilter';
import { fakeServices } from './test-utils';

describe('remote-search filter', () => {
  it('asks the declared call as the user types and hands the picked values to the table', async () => {
    const { services, calls } = fakeServices((r) =>
      (r.params?.search ? [{ text: 'ds_alpha' }] : [{ text: 'ds_alpha' }, { id: 2, text: 'ds_beta' }]),
    );
    const setSelectedKeys = vi.fn();
    const confirm = vi.fn();
    render(
      <CrudServicesContext.Provider value={services}>
        <RemoteFilter api="GET /gemini/datasource/select" prefixCls="ant-dropdown" selectedKeys={[]} setSelectedKeys={setSelectedKeys} confirm={confirm} clearFilters={() => undefined} close={() => undefined} visible />
      </CrudServicesContext.Provider>,
    );
    await waitFor(() => expect(calls[0]).toMatchObject({ method: 'GET', path: '/gemini/datasource/select', params: { search: '' } }));
    const input = screen.getByRole('combobox');
    fireEvent.change(input, { target: { value: 'alp' } });
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ params: { search: 'alp' } }), { timeout: 3000 });
    fireEvent.mouseDown(input);
    const option = await screen.findByTitle('ds_alpha');
    await act(async () => fireEvent.click(option));
    expect(setSelectedKeys).toHaveBeenCalledWith(['ds_alpha']);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /确\s?定/ })));
    expect(confirm).toHaveBeenCalled();
  });
});
