// The toolbar's 导出 menu (Excel / CSV with the list's search) and the sheet import dialog (preview, report,
// 确认导入 disabled while there are faults), from a declaration, with fake services.
import { App } from 'antd';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { CrudServicesContext } from './services';
import { CrudView } from './CrudView';
import { fakeServices } from './test-utils';
import type { PageDeclaration } from './types';

const page = {
  id: 'things',
  title: '物品',
  api: { search: 'POST /things/search', export: 'GET /things/export', import: 'POST /things/import' },
  perms: { list: 'things:list', import: 'things:import' },
  search: { fields: ['name'] },
  columns: [{ title: '名称', field: 'name' }],
  toolbar: [{ action: 'download', label: '导出', formats: ['xlsx', 'csv'] }, { action: 'import', label: '导入' }],
} as unknown as PageDeclaration;

const report = (faults: unknown[]) => ({ header: ['名称'], preview: [{ row: 2, cells: ['甲'] }, { row: 3, cells: [''] }], total: 2, faults });

function renderWith(services: ReturnType<typeof fakeServices>['services']) {
  return render(
    <ConfigProvider locale={zhCN}>
      <App>
        <CrudServicesContext.Provider value={services}>
          <CrudView page={page} />
        </CrudServicesContext.Provider>
      </App>
    </ConfigProvider>,
  );
}

describe('sheets in the list page', () => {
  it('导出 offers Excel and CSV and sends the search with the chosen format', async () => {
    const { services } = fakeServices(() => ({ records: [{ id: 1, name: '甲' }], total: 1 }));
    const downloads: unknown[][] = [];
    services.download = async (...args) => {
      downloads.push(args);
      return true;
    };
    renderWith(services);
    await screen.findByText('甲');
    fireEvent.change(screen.getByTestId('crud-search'), { target: { value: '甲' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s?索/ }));
    fireEvent.click(screen.getByTestId('toolbar-export'));
    fireEvent.click(await screen.findByText('Excel（XLSX）'));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]).toEqual(['GET', '/things/export', expect.objectContaining({ search: '甲', format: 'xlsx' })]);
  });

  it('导入: the report of a faulty file keeps 确认导入 disabled; a clean one imports', async () => {
    const { services, calls } = fakeServices(() => ({ records: [], total: 0 }));
    let faults: unknown[] = [{ row: 3, field: '名称', reason: '名称不能为空' }];
    services.upload = (async (_path: string, form: FormData) => {
      calls.push({ method: 'POST', path: _path, body: form });
      return form.get('mode') === 'commit' ? { ...report([]), imported: 2 } : report(faults);
    }) as typeof services.upload;
    renderWith(services);
    fireEvent.click(await screen.findByRole('button', { name: /导\s?入/ }));
    const dialog = await screen.findByRole('dialog');
    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['名称\n甲\n\n'], 'a.csv', { type: 'text/csv' })] } });
    const table = await within(dialog).findByTestId('sheet-import-faults');
    expect(within(table).getByText('名称不能为空')).toBeInTheDocument();
    expect(within(dialog).getByTestId('sheet-import-commit')).toBeDisabled();
    expect((calls.at(-1)!.body as FormData).get('mode')).toBe('preview');
    expect(calls.at(-1)!.path).toBe('/things/import');
    faults = [];
    // rc-upload renders a fresh input after each file
    fireEvent.change(dialog.querySelector('input[type=file]')!, { target: { files: [new File(['名称\n甲\n乙\n'], 'b.csv', { type: 'text/csv' })] } });
    await within(dialog).findByText('共 2 行，校验通过，可以导入', {}, { timeout: 5000 });
    const commit = within(dialog).getByTestId('sheet-import-commit');
    await waitFor(() => expect(commit).not.toBeDisabled());
    fireEvent.click(commit);
    await screen.findByText('导入成功，共 2 条');
    expect((calls.filter((c) => c.path === '/things/import').at(-1)!.body as FormData).get('mode')).toBe('commit');
  });

  it('a file of another type is refused in the dialog before any call', async () => {
    const { services, calls } = fakeServices(() => ({ records: [], total: 0 }));
    renderWith(services);
    fireEvent.click(await screen.findByRole('button', { name: /导\s?入/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(dialog.querySelector('input[type=file]')!, { target: { files: [new File(['x'], 'a.txt')] } });
    expect(await within(dialog).findByTestId('sheet-import-problem')).toHaveTextContent('只支持 CSV（.csv）或 Excel（.xlsx）文件');
    expect(calls.some((c) => c.path === '/things/import')).toBe(false);
  });
});
