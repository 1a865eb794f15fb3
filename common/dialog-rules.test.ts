// Declared dialog field rules (common/dialog-rules.ts): how each declaration reads, and the message each rule
// gives. The browser's dialogs and the server's body check both run these; e2e/rules-agree.test.ts compares them.
import { declaredFault, declaredRuleOf, declaredRulesOf, FORMATS, hasValueRules, type DeclaredEnv } from './dialog-rules';

const env: DeclaredEnv = { regExp: (s) => new RegExp(s), dictValues: (d) => (d === 'ENV_TYPE' ? ['dev', 'prod'] : undefined) };

/** [field declaration, value, expected message or null] */
type Row = [Record<string, unknown>, unknown, string | null];
const table: Row[] = [
  // required: on the field, in x-validator with its message, with whitespace
  [{ type: 'string', title: '名称', required: true }, '', '请输入名称'],
  [{ type: 'string', title: '名称', required: true }, undefined, '请输入名称'],
  [{ type: 'string', title: '名称', required: true }, 'a', null],
  [{ type: 'string', title: '名称', 'x-validator': [{ required: true, message: '名称必填' }] }, null, '名称必填'],
  [{ type: 'string', title: '名称', 'x-validator': [{ required: true, message: '名称必填' }] }, '   ', null],
  [{ type: 'string', title: '名称', 'x-validator': [{ required: true, whitespace: true, message: '名称必填' }] }, '   ', '名称必填'],
  [{ type: 'string', title: '名称', 'x-validator': [{ whitespace: true }] }, ' \t', '请输入名称'],
  [{ type: 'string', title: '名称' }, '', null],
  // types
  [{ type: 'integer', title: '端口' }, '3306', '端口类型错误，应为整数'],
  [{ type: 'integer', title: '端口' }, 1.5, '端口类型错误，应为整数'],
  [{ type: 'number', title: '比例' }, 1.5, null],
  [{ type: 'string', title: '名称' }, 12, '名称类型错误，应为文本'],
  [{ type: 'boolean', title: '启用' }, 'true', '启用类型错误，应为布尔值'],
  [{ type: 'boolean', title: '启用', required: true }, false, null],
  // lengths in characters: keyword, x-validator maxLength / max / minLength / min, the smaller limit wins
  [{ type: 'string', title: '名称', maxLength: 3 }, '一二三四', '名称长度不能超过3个字符'],
  [{ type: 'string', title: '名称', maxLength: 3 }, '😀😀😀', null],
  [{ type: 'string', title: '名称', maxLength: 10, 'x-validator': [{ max: 3, message: '最多三个字' }] }, '一二三四', '最多三个字'],
  [{ type: 'string', title: '名称', maxLength: 3, 'x-validator': [{ maxLength: 10 }] }, '一二三四', '名称长度不能超过3个字符'],
  [{ type: 'string', title: '名称', minLength: 2 }, '一', '名称长度不能少于2个字符'],
  [{ type: 'string', title: '名称', 'x-validator': { min: 2, message: '至少两个字' } }, '一', '至少两个字'],
  // patterns and formats, with or without a message
  [{ type: 'string', title: '地址', pattern: '^[a-z]+$' }, 'ABC', '地址格式不正确'],
  [{ type: 'string', title: '地址', 'x-validator': [{ pattern: '^[a-z]+$', message: '只能小写' }] }, 'ABC', '只能小写'],
  [{ type: 'string', title: '地址', 'x-validator': [{ pattern: '^[a-z]+$', message: '只能小写' }] }, 'abc', null],
  [{ type: 'string', title: '邮箱', 'x-validator': 'email' }, 'x@', '邮箱格式不正确'],
  [{ type: 'string', title: '邮箱', format: 'email' }, 'a@b.cn', null],
  [{ type: 'string', title: '手机', 'x-validator': [{ format: 'phone', message: '请输入正确的手机号码' }] }, '01012345678', '请输入正确的手机号码'],
  [{ type: 'string', title: '手机', 'x-validator': 'mobile' }, '13912345678', null],
  [{ type: 'string', title: '网址', format: 'url' }, 'HTTPS://a.cn/x', null],
  [{ type: 'string', title: '网址', format: 'url' }, 'a.cn', '网址格式不正确'],
  [{ type: 'string', title: 'IP', format: 'ipv4' }, '256.1.1.1', 'IP格式不正确'],
  [{ type: 'string', title: '证件', format: 'idcard' }, '11010519491231002x', null],
  [{ type: 'string', title: '邮编', format: 'zip' }, '10000', '邮编格式不正确'],
  [{ type: 'string', title: '名称', format: 'no-such-format' }, 'anything', null],
  // number bounds: keyword, a number picker's min / max, x-validator minimum / max with message
  [{ type: 'integer', title: '端口', 'x-component-props': { min: 1, max: 65535 } }, 0, '端口不能小于1'],
  [{ type: 'integer', title: '端口', 'x-component-props': { min: 1, max: 65535 } }, 65536, '端口不能大于65535'],
  [{ type: 'integer', title: '端口', minimum: 10, 'x-component-props': { min: 1 } }, 5, '端口不能小于10'],
  [{ type: 'number', title: '比例', 'x-validator': [{ max: 1, message: '不能超过 1' }] }, 1.5, '不能超过 1'],
  [{ type: 'number', title: '比例', 'x-validator': [{ minimum: 0 }] }, -1, '比例不能小于0'],
  // enum and dictionary
  [{ type: 'string', title: '级别', enum: ['a', { label: 'B', value: 'b' }] }, 'b', null],
  [{ type: 'string', title: '级别', enum: ['a', { label: 'B', value: 'b' }] }, 'c', '级别取值不合法'],
  [{ type: 'string', title: '环境', 'x-dict': 'ENV_TYPE' }, 'test', '环境取值不合法，请从字典 ENV_TYPE 中选择'],
  [{ type: 'string', title: '环境', 'x-dict': 'UNKNOWN' }, 'test', null],
];

describe('declared dialog field rules', () => {
  for (const [prop, value, expected] of table) {
    it(`${JSON.stringify(prop)} ← ${JSON.stringify(value) ?? 'undefined'}: ${expected ?? 'passes'}`, () => {
      expect(declaredFault(declaredRuleOf('f', prop), value, env)).toBe(expected);
    });
  }

  it('reads a page: the schema’s required list, titles, declaration order', () => {
    const rules = declaredRulesOf({ dialog: { schema: { type: 'object', required: ['b'], properties: { a: { type: 'string' }, b: { type: 'integer', title: '乙' } } } } });
    expect(rules.map((r) => [r.field, r.title, r.required])).toEqual([
      ['a', 'a', false],
      ['b', '乙', true],
    ]);
    expect(declaredRulesOf(null)).toEqual([]);
  });

  it('knows when a field checks more than presence; its formats are linear expressions', () => {
    expect(hasValueRules(declaredRuleOf('f', { title: 'x', 'x-validator': [{ required: true }] }))).toBe(false);
    expect(hasValueRules(declaredRuleOf('f', { type: 'string' }))).toBe(true);
    for (const re of Object.values(FORMATS)) expect(re.flags.replace('i', '')).toBe('');
  });
});
