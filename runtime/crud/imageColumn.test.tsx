// An image column whose pictures a call answers with the session (`api`), e.g. the screen list's thumbnails:
// fetched as blobs for the rows that have one, shown from object URLs; the others show the declared placeholder.
import { screen, waitFor } from '@testing-library/react';
import { fakeServices, renderPage } from './test-utils';
import type { PageDeclaration } from './types';

const page: PageDeclaration = {
  id: 'pictures',
  title: '图片',
  api: { search: 'POST /pictures/search' },
  columns: [
    { title: '名称', field: 'name' },
    { title: '缩略图', type: 'image', field: 'thumbnail', api: 'GET /pictures/thumbnail', params: { id: '{{id}}', v: '{{thumbnail}}' }, altField: 'name', imageWidth: 128, imageHeight: 72, placeholder: '暂无缩略图' },
  ],
};

describe('image column with api', () => {
  const made: string[] = [];
  const revoked: string[] = [];
  beforeAll(() => {
    URL.createObjectURL = vi.fn(() => {
      made.push(`blob:test/${made.length}`);
      return made[made.length - 1];
    });
    URL.revokeObjectURL = vi.fn((u: string) => void revoked.push(u));
  });

  it('fetches the picture of each row that has one, with its params, and shows the placeholder for the rest', async () => {
    const { services } = fakeServices(() => ({ records: [{ id: 1, name: '运营', thumbnail: 'abc' }, { id: 2, name: '销售', thumbnail: null }, { id: 3, name: '监控', thumbnail: 'zzz' }], total: 3 }));
    const asked: Array<[string, Record<string, unknown> | undefined]> = [];
    services.fetchBlob = async (path, params) => {
      asked.push([path, params]);
      if (params?.id === 3) throw new Error('gone');
      return new Blob(['x'], { type: 'image/webp' });
    };
    const view = renderPage(page, services);
    const img = await screen.findByAltText('运营', undefined, { timeout: 5000 });
    expect(img.getAttribute('src')).toMatch(/^blob:test\//);
    expect(img.getAttribute('width')).toBe('128');
    expect(asked).toEqual(expect.arrayContaining([['/pictures/thumbnail', { id: 1, v: 'abc' }], ['/pictures/thumbnail', { id: 3, v: 'zzz' }]]));
    expect(asked.some(([, p]) => p?.id === 2)).toBe(false);
    // no picture, and a picture that could not be had: the neutral placeholder
    await waitFor(() => expect(screen.getAllByTestId('image-placeholder')).toHaveLength(2));
    expect(screen.getAllByText('暂无缩略图')).toHaveLength(2);
    view.unmount();
    expect(revoked).toEqual(expect.arrayContaining([img.getAttribute('src')]));
  });

  it('without a way to fetch pictures shows the placeholder', async () => {
    const { services } = fakeServices(() => ({ records: [{ id: 1, name: '运营', thumbnail: 'abc' }], total: 1 }));
    renderPage(page, services);
    expect(await screen.findByTestId('image-placeholder')).toBeTruthy();
  });
});
