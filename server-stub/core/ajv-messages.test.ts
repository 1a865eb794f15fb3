// The one ajv → Chinese translator: every keyword names the field as a path people read, never a JSON pointer
// alone and never a regular expression.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { ajvFaults, describeAjvErrors, describeAt, fieldOf } from '../../common/ajv-messages.js';

const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true, verbose: true });
(addFormats as unknown as (a: Ajv) => void)(ajv);

const schema = {
  type: 'object',
  required: ['id', 'columns'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', pattern: '^[a-z][a-zA-Z0-9_-]*$', description: '页面标识：以小写字母开头' },
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
    columns: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['title'],
        additionalProperties: false,
        properties: {
          title: { type: 'string', minLength: 1, maxLength: 5 },
          width: { type: 'number', minimum: 10, maximum: 500 },
          format: { enum: ['date', 'yesno'] },
          kind: { const: 'text' },
          value: { anyOf: [{ type: 'string' }, { type: 'number' }] },
          shape: { oneOf: [{ type: 'object', required: ['a'], properties: { a: {} } }, { type: 'object', required: ['b'], properties: { b: {} } }] },
        },
      },
    },
    mail: { type: 'string', format: 'email' },
    tags: { type: 'array', uniqueItems: true, maxItems: 2 },
  },
};
const check = ajv.compile(schema);
const faultsOf = (data: unknown) => (check(data) ? [] : describeAjvErrors(check.errors, { root: '页面声明' }));

describe('ajv errors in Chinese', () => {
  it('names fields as paths people read', () => {
    expect(fieldOf('/columns/2/title')).toBe('columns[2].title');
    expect(fieldOf('/columns/2', 'title')).toBe('columns[2].title');
    expect(fieldOf('/a~1b/c~0d')).toBe('a/b.c~d');
    expect(fieldOf('')).toBe('');
    expect(describeAt('/dialog/schema/properties/phone/pattern', '：不是合法的正则表达式')).toBe('字段「dialog.schema.properties.phone.pattern」：不是合法的正则表达式');
  });

  it('has a template for every keyword a declaration meets', () => {
    const faults = faultsOf({
      id: 'Bad Id',
      code: 'ab',
      extra: 1,
      columns: [
        { title: '' },
        { width: 'wide', format: 'nope', kind: 'link', value: true, shape: { c: 1 } },
        { title: '一二三四五六', width: 5 },
        { title: 'x', width: 900 },
      ],
      mail: 'a@',
      tags: [1, 1, 2],
    });
    expect(faults).toEqual(
      expect.arrayContaining([
        '字段「extra」不是允许的属性',
        '字段「id」格式不正确，应为：页面标识：以小写字母开头',
        '字段「code」格式不正确',
        '字段「columns[0].title」不能为空',
        '字段「columns[1].title」缺少必填属性',
        '字段「columns[1].width」类型应为数字',
        '字段「columns[1].format」取值不在允许范围内（可选：date、yesno）',
        '字段「columns[1].kind」取值应为 text',
        '字段「columns[1].value」类型应为字符串或数字',
        '字段「columns[1].shape」不符合任何一种允许的写法',
        '字段「columns[2].title」长度不能超过 5 个字符',
        '字段「columns[2].width」不能小于 10',
        '字段「columns[3].width」不能大于 500',
        '字段「mail」格式不正确，应为电子邮箱地址',
        '字段「tags」最多 2 项',
        '字段「tags」不能有重复项（第 1 项与第 2 项相同）',
      ]),
    );
    // the branches of a failed anyOf / oneOf are folded into it, and nothing repeats
    expect(faults.filter((f) => f.includes('columns[1].value'))).toHaveLength(1);
    expect(faults.filter((f) => f.includes('columns[1].shape'))).toHaveLength(1);
    expect(new Set(faults).size).toBe(faults.length);
    // never a regular expression, never a bare pointer, never ajv's English
    for (const f of faults) {
      expect(f).toMatch(/^字段「[^」]+」/);
      expect(f).not.toMatch(/\^|\$|\[a-z|\/columns|must|should/);
    }
  });

  it('names the whole value when the fault is the value itself, and the missing list items', () => {
    expect(faultsOf([])).toEqual(['页面声明类型应为对象']);
    expect(faultsOf({ columns: [] })).toEqual(['字段「id」缺少必填属性', '字段「columns」至少需要 1 项']);
  });

  it('points each fault at the property it is about', () => {
    check({ id: 'ok', columns: [{}], extra: 1 });
    expect(ajvFaults(check.errors).map((f) => f.pointer)).toEqual(expect.arrayContaining(['/extra', '/columns/0/title']));
  });
});
