// 从数据表生成: the dialog lists data sources and tables, shows the server's refusal in Chinese (a table without a
// primary key), sends the ticked select columns, and hands the generated declaration on.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';

const calls: Array<{ path: string; body: any }> = [];
vi.mock('../../core/request', () => ({
  post: async (path: string, body: any) => {
    calls.push({ path, body });
    if (path === '/gemini/datasource/search') return { records: [{ id: 1, dsName: 'demo_sqlite', dbType: 'sqlite' }] };
    if (path === '/lowcode/source/tables') return { records: [{ name: 'goods', schema: null, table: 'goods', kind: 'table' }, { name: 'nokey', schema: null, table: 'nokey', kind: 'table' }] };
    if (body.table === 'nokey') throw new Error('表「nokey」没有主键，无法生成可编辑页面');
    const columns = [
      { name: 'id', dataType: 'integer', nullable: false, maxLength: null, precision: null, scale: null, defaultValue: null, primaryKey: true, autoIncrement: true },
      { name: 'level', dataType: 'varchar', nullable: true, maxLength: 10, precision: null, scale: null, defaultValue: null, primaryKey: false, autoIncrement: false },
    ];
    return { declaration: { id: 't_goods', title: 'goods', rowKey: 'id', selects: body.selects ?? [] }, notes: [], columns };
  },
}));

import { GenerateDialog } from './GenerateDialog';

const choose = async (testId: string, option: string) => {
  fireEvent.mouseDown(within(screen.getByTestId(testId)).getByRole('combobox'));
  fireEvent.click(await screen.findByText(option, { selector: '.ant-select-item-option-content' }));
};

describe('GenerateDialog', () => {
  it('lists sources and tables, tells a refusal, sends the ticked selects and hands the declaration on', async () => {
    const onGenerated = vi.fn();
    render(<GenerateDialog open onClose={() => undefined} onGenerated={onGenerated} />);
    await waitFor(() => expect(calls.some((c) => c.path === '/gemini/datasource/search')).toBe(true));
    await choose('gen-ds', 'demo_sqlite（sqlite）');
    await waitFor(() => expect(calls.some((c) => c.path === '/lowcode/source/tables' && c.body.dsId === 1)).toBe(true));
    await choose('gen-table', 'nokey');
    expect(await screen.findByText('表「nokey」没有主键，无法生成可编辑页面')).toBeTruthy();
    await choose('gen-table', 'goods');
    await userEvent.click(await screen.findByRole('checkbox', { name: /level/ }));
    await waitFor(() => expect((screen.getByRole('checkbox', { name: /level/ }) as HTMLInputElement).checked).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: /生\s*成/ }));
    await waitFor(() => expect(onGenerated).toHaveBeenCalled());
    expect(onGenerated.mock.calls[0][0]).toMatchObject({ id: 't_goods', selects: ['level'] });
    expect(calls.at(-1)!.body).toMatchObject({ dsId: 1, table: 'goods', selects: ['level'] });
  });
});

describe('a generated declaration in the page manager', () => {
  it('passes the page manager’s own check (the meta-schema with its source block), for a table and a view', async () => {
    const { checkDeclaration } = await import('./validate');
    const { generateTablePage } = await import('../../../common/tablePage');
    const col = (name: string, dataType: string, more = {}) => ({ name, dataType, nullable: true, maxLength: null, precision: null, scale: null, defaultValue: null, primaryKey: false, autoIncrement: false, ...more });
    const columns = [col('id', 'integer', { primaryKey: true, autoIncrement: true, nullable: false }), col('name', 'varchar', { maxLength: 20, nullable: false }), col('day', 'date'), col('ok', 'boolean'), col('price', 'numeric', { precision: 8, scale: 2 })];
    for (const kind of ['table', 'view'] as const) {
      const r = generateTablePage({ dialect: 'sqlite', schema: null, table: 'sales', kind, columns }, { pageKey: 't_sales', dsId: 1, dsName: 'demo', selects: { name: ['a', 'b'] } });
      if (!r.ok) throw new Error(r.reason);
      const checked = checkDeclaration(JSON.stringify(r.declaration), []);
      expect(checked.ok ? [] : checked.faults, kind).toEqual([]);
    }
  });
});
