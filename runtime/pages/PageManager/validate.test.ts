import { checkDeclaration } from './validate';
import { renamedText } from './visual/faults';
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
        '字段「页面标识」格式不正确，应为：页面标识：以小写字母开头，只含字母、数字、下划线和短横线，如 supplier',
        '列「x」的标题缺少必填属性',
        expect.stringMatching(/^列「y」的格式：取值不在允许范围内（可选：datetime、date、/),
        '列「z」的宽度：类型应为数字',
      ]),
    );
    for (const m of messages) expect(m).not.toMatch(/\^|\$|\/columns|must/);
    // the pointer stays for code (an editor could jump there)
    expect(r.ok ? [] : r.faults.map((f) => f.pointer)).toEqual(expect.arrayContaining(['/extra', '/id', '/columns/0/title', '/columns/1/format']));
  });
  it('says what the meta-schema cannot: widths, patterns, dictionaries, search fields, labels', () => {
    const bad = structuredClone(supplier) as any;
    bad.columns[1].width = -5;
    bad.columns[2].dict = 'NO_SUCH';
    bad.search.fields = ['name', 'nope'];
    bad.dialog.schema.properties.phone['x-validator'][0].pattern = '^(1';
    bad.dialog.schema.properties.remark.title = '';
    bad.dialog.schema.properties.name.minimum = 5;
    bad.dialog.schema.properties.name.maximum = 1;
    bad.rowActions[0].label = ' ';
    const r = checkDeclaration(JSON.stringify(bad), ['ftp'], ['YES_OR_NO']);
    expect(r.ok ? [] : r.faults.map((f) => f.message)).toEqual([
      '列「名称」的宽度应为正整数',
      '列「手机号」的字典「NO_SUCH」不存在',
      '搜索的字段「nope」不在表单字段或列中',
      '表单字段「名称」的最小值不能大于最大值',
      '表单字段「手机号」的格式（正则表达式）「^(1」无效',
      '表单字段「remark」的标签不能为空',
      '行按钮「编辑」的文字不能为空',
    ]);
    // every built-in page passes the same checks
    for (const p of Object.values(import.meta.glob('../../../schemas/pages/*.json', { eager: true, import: 'default' }))) {
      const c = checkDeclaration(JSON.stringify(p));
      expect(c.ok ? [] : c.faults).toEqual([]);
    }
  });
  it('reports JSON syntax errors by line and column, and built-in id clashes', () => {
    const r = checkDeclaration('{\n  "id": "a"\n  "title": "b"\n}');
    expect(r.ok ? null : r.faults[0].message).toMatch(/^不是合法的 JSON：第 3 行第 \d+ 列附近有语法错误/);
    const clash = checkDeclaration(JSON.stringify({ ...supplier, id: 'ftp' }), ['ftp']);
    expect(clash.ok ? null : clash.faults[0]).toEqual({ pointer: '/id', message: '字段「id」与内置页面重名：ftp' });
  });
  it("names the fields of the server's refusal as the editor does", () => {
    const d = { ...supplier, columns: [{ title: '序号', type: 'index' }, { title: '城市', field: 'city', sortable: true }] };
    expect(renamedText('字段「columns[1].field」是可排序列，引用的字段 city 未在表单', d)).toBe('列「城市」的字段：是可排序列，引用的字段 city 未在表单');
    expect(renamedText('字段「dialog.schema.properties.phone.pattern」不安全', d)).toBe('表单字段「手机号」的格式（正则表达式）：不安全');
    expect(renamedText('字段「nope.x」未知', d)).toBe('字段「nope.x」未知');
  });
});
