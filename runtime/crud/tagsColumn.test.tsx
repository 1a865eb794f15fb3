// A `tags` column: dictionary tags side by side, each shown by its `when`; the plain dict tag otherwise.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeServices, renderPage } from './test-utils';
import type { PageDeclaration } from './types';

const page = {
  id: 'tagsDemo',
  title: '标签列',
  api: { search: 'POST /demo/search' },
  columns: [
    { title: '名称', field: 'name' },
    {
      title: '状态',
      field: 'env',
      dict: 'ENV_TYPE',
      tags: [
        { field: 'flag', dict: 'YES_OR_NO', text: '{label} V{v1}', when: { field: 'both', in: [true] } },
        { field: 'env', dict: 'ENV_TYPE', text: 'V{v2} {label}', when: { field: 'both', in: [true] } },
      ],
    },
  ],
} as PageDeclaration;

describe('tags column', () => {
  it('shows both parts on a row whose when holds, the column dict alone on the others', async () => {
    const records = [
      { id: 1, name: 'a', env: 'dev', flag: 1, both: true, v1: 1, v2: 2 },
      { id: 2, name: 'b', env: 'dev', flag: 1, both: false, v1: 1, v2: 2 },
    ];
    const { services } = fakeServices(() => ({ records, total: 2 }));
    renderPage(page, services);
    const rowA = (await screen.findByText('a')).closest('tr')!;
    const yes = services.useDict('YES_OR_NO').find((i) => String(i.value) === '1')!.label;
    const dev = services.useDict('ENV_TYPE').find((i) => i.value === 'dev')!.label;
    expect(within(rowA).getByText(`${yes} V1`)).toHaveClass('ant-tag');
    expect(within(rowA).getByText(`V2 ${dev}`)).toHaveClass('ant-tag');
    expect(rowA.textContent).toContain('·');
    const rowB = screen.getByText('b').closest('tr')!;
    expect(within(rowB).getByText(dev)).toHaveClass('ant-tag');
    expect(rowB.textContent).not.toContain('·');
  });
});
