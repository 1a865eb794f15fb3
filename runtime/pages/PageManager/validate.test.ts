import { checkDeclaration } from './validate';
import supplier from '../../../schemas/examples/supplier.page.json';

describe('page-manager validation', () => {
  it('accepts the supplier example', () => {
    expect(checkDeclaration(JSON.stringify(supplier)).ok).toBe(true);
  });
  it('reports each fault with its JSON pointer', () => {
    const bad = { ...supplier, id: 'Bad Id', columns: [{ field: 'x' }, { title: 'y', format: 'nope' }], extra: 1 };
    const r = checkDeclaration(JSON.stringify(bad));
    expect(r.ok).toBe(false);
    const pointers = r.ok ? [] : r.faults.map((f) => f.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/', '/id', '/columns/0', '/columns/1/format']));
  });
  it('reports JSON syntax errors and built-in id clashes', () => {
    expect(checkDeclaration('{').ok).toBe(false);
    const r = checkDeclaration(JSON.stringify({ ...supplier, id: 'ftp' }), ['ftp']);
    expect(r.ok ? null : r.faults[0]).toEqual({ pointer: '/id', message: '与内置页面重名：ftp' });
  });
});
