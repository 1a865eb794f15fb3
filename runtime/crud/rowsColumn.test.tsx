// A `rows` column (a form's sub-table in its entries list): “n 行”, opened as a small table of the declared
// columns with option labels; a value that looks like HTML is shown as text.
import { act, fireEvent, screen } from '@testing-library/react';
import { fakeServices, renderPage } from './test-utils';
import type { PageDeclaration } from './types';

const page: PageDeclaration = {
  id: 'entries',
  title: '填写记录',
  api: { search: 'POST /entries/search' },
  columns: [
    { title: '编号', field: 'id' },
    { title: '明细', type: 'rows', field: 'items', columns: [{ title: '名称', field: 'item' }, { title: '单位', field: 'unit', options: [{ label: '箱', value: 'box' }] }] },
  ],
};

it('shows a row count that opens the rows as a table, values as text', async () => {
  const html = '<img src=x onerror=alert(1)>';
  const { services } = fakeServices(() => ({ records: [{ id: 1, items: [{ item: html, unit: 'box' }, { item: '梨' }] }, { id: 2, items: [] }], total: 2 }));
  renderPage(page, services);
  const cell = await screen.findByText('2 行');
  expect(document.querySelectorAll('[data-rows-cell]')).toHaveLength(1); // no rows: an empty cell
  await act(async () => fireEvent.click(cell));
  expect(await screen.findByText(html)).toBeInTheDocument();
  expect(screen.getByText('箱')).toBeInTheDocument();
  expect(screen.getByText('梨')).toBeInTheDocument();
  expect(document.querySelector('img[src="x"]')).toBeNull();
});
