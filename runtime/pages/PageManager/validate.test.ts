import { checkDeclaration } from './validate';
import supplier from '../../../schemas/examples/supplier.page.json';

describe('page-manager validation', () => {
  it('accepts the supplier example', () => {
    expect(checkDeclaration(JSON.stringify(supplier)).ok).toBe(true);
  });
  it('names each faulty field in Chinese, never by a JSON pointer or a regular expression', () => {
    const bad = { ...supplier, id: 'Bad Id', columns: [{ field: 'x' }, { title: 'y', format: 'nope' }, { title: 'z', width: 'wide' }], extra: 1 };
    const r = checkDeclaration(JSON.stringify(bad));
    expect(r.ok).toBe(false);
    const messages = r.ok ? [] : r.faults.map((f) => f.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        '字段「extra」不是允许的属性',
        '字段「id」格式不正确，应为：页面标识：以小写字母开头，只含字母、数字、下划线和短横线，如 supplier',
        '字段「columns[0].title」缺少必填属性',
        expect.stringMatching(/^字段「columns\[1\]\.format」取值不在允许范围内（可选：datetime、date、/),
        '字段「columns[2].width」类型应为数字',
      ]),
    );
    for (const m of messages) expect(m).not.toMatch(/\^|\$|\/columns|must/);
    // the pointer stays for code (an editor could jump there)
    expect(r.ok ? [] : r.faults.map((f) => f.pointer)).toEqual(expect.arrayContaining(['/extra', '/id', '/columns/0/title', '/columns/1/format']));
  });
  it('reports JSON syntax errors by line and column, and built-in id clashes', () => {
    const r = checkDeclaration('{\n  "id": "a"\n  "title": "b"\n}');
    expect(r.ok ? null : r.faults[0].message).toMatch(/^不是合法的 JSON：第 3 行第 \d+ 列附近有语法错误/);
    const clash = checkDeclaration(JSON.stringify({ ...supplier, id: 'ftp' }), ['ftp']);
    expect(clash.ok ? null : clash.faults[0]).toEqual({ pointer: '/id', message: '字段「id」与内置页面重名：ftp' });
  });
});
