// The shared field rules, kind by kind, typical and edge values: the message a value is refused with (the
// field* templates, or the rule's own message), or what is stored. Browser and server both run these rules;
// e2e/rules-agree.test.ts proves the two sides answer alike.
import { messages } from './messages';
import { checkField, CUSTOM_PATTERN, fieldDefOf, fieldFault, FORM_FILE_URL, isEmptyValue, PATTERN_PRESETS, type DictTable, type RuleEnv } from './fields';

const dicts: DictTable = {
  YES_OR_NO: { items: [{ value: 1, label: '是' }, { value: 0, label: '否' }] },
  ENV_TYPE: { items: [{ value: 'dev', label: '开发' }, { value: 'prod', label: '生产' }] },
};
const env: RuleEnv = { messages, regExp: (s) => new RegExp(s) };
const IMG = '/files/form/0f8fad5b-d9cb-469f-a165-70867728950e.png';
const IMG2 = IMG.replace('0f8', '1f8');
const OPTIONS = [
  { label: '选项一', value: '1' },
  { label: '选项二', value: '2' },
  { label: '选项三', value: '3' },
];

/** [widget kind, view props, value, expected: a message, or `ok <stored JSON>`, or 'empty'] */
type Row = [string, Record<string, unknown>, unknown, string];
const { mobile, email, idcard } = PATTERN_PRESETS;

const table: Row[] = [
  // single-line text: type, required (own message wins), length in characters, presets, own pattern
  ['formInput', { label: '姓名' }, '张三', 'ok "张三"'],
  ['formInput', { label: '姓名' }, '', 'empty'],
  ['formInput', { label: '姓名' }, undefined, 'empty'],
  ['formInput', { label: '姓名', required: true }, '', '请输入姓名'],
  ['formInput', { label: '姓名', required: true }, null, '请输入姓名'],
  ['formInput', { label: '姓名', required: true, requiredMessage: '姓名必填' }, undefined, '姓名必填'],
  ['formInput', { label: '姓名', required: true, requiredMessage: '   ' }, undefined, '请输入姓名'],
  ['formInput', { label: '姓名', required: true }, ' ', 'ok " "'],
  ['formInput', { label: '姓名' }, 12, '姓名类型错误'],
  ['formInput', { label: '姓名' }, ['a'], '姓名类型错误'],
  ['formInput', { label: '姓名', minLength: 2, maxLength: 4 }, '张', '姓名长度须在2到4个字符之间'],
  ['formInput', { label: '姓名', minLength: 2, maxLength: 4 }, '张三李四王', '姓名长度须在2到4个字符之间'],
  ['formInput', { label: '姓名', minLength: 2, maxLength: 4, lengthMessage: '二到四个字' }, '张', '二到四个字'],
  ['formInput', { label: '姓名', maxLength: 2 }, '😀😀', 'ok "😀😀"'],
  ['formInput', { label: '姓名', minLength: 3 }, '张三', '姓名长度须在3到不限个字符之间'],
  ['formInput', { label: '手机', patternPreset: mobile.source }, '13800138000', 'ok "13800138000"'],
  ['formInput', { label: '手机', patternPreset: mobile.source }, '12800138000', '手机格式不正确'],
  ['formInput', { label: '手机', patternPreset: mobile.source }, '1380013800', '手机格式不正确'],
  ['formInput', { label: '手机', patternPreset: mobile.source, patternMessage: '请输入正确的手机号码' }, '1', '请输入正确的手机号码'],
  ['formInput', { label: '邮箱', patternPreset: email.source }, 'a.b@c.com.cn', 'ok "a.b@c.com.cn"'],
  ['formInput', { label: '邮箱', patternPreset: email.source }, 'a@b', '邮箱格式不正确'],
  ['formInput', { label: '邮箱', patternPreset: email.source }, 'a b@c.cn', '邮箱格式不正确'],
  ['formInput', { label: '身份证号', patternPreset: idcard.source }, '11010519491231002X', 'ok "11010519491231002X"'],
  ['formInput', { label: '身份证号', patternPreset: idcard.source }, '110105194912310', 'ok "110105194912310"'],
  ['formInput', { label: '身份证号', patternPreset: idcard.source }, '1101051949123100', '身份证号格式不正确'],
  ['formInput', { label: '编码', patternPreset: CUSTOM_PATTERN, customPattern: '^[A-Z]{3}$' }, 'ABC', 'ok "ABC"'],
  ['formInput', { label: '编码', patternPreset: CUSTOM_PATTERN, customPattern: ' ^[A-Z]{3}$ ' }, 'ABC', 'ok "ABC"'],
  ['formInput', { label: '编码', patternPreset: CUSTOM_PATTERN, customPattern: '^[A-Z]{3}$' }, 'abc', '编码格式不正确'],
  ['formInput', { label: '编码', patternPreset: CUSTOM_PATTERN, customPattern: '' }, 'abc', 'ok "abc"'],
  ['formInput', { label: '编码', patternPreset: CUSTOM_PATTERN, customPattern: '^a$', required: true }, '', '请输入编码'],
  // multi-line text: no pattern, lengths
  ['formTextarea', { label: '意见', minLength: 5, maxLength: 500 }, '太短', '意见长度须在5到500个字符之间'],
  ['formTextarea', { label: '意见', patternPreset: mobile.source }, '不是手机号也可以', 'ok "不是手机号也可以"'],
  ['formTextarea', { label: '意见', required: true }, '', '请输入意见'],
  // number: type, range / one-sided bounds / own message, precision (exponents count)
  ['formNumber', { label: '年龄', minimum: 0, maximum: 150 }, 18, 'ok 18'],
  ['formNumber', { label: '年龄', minimum: 0, maximum: 150 }, 0, 'ok 0'],
  ['formNumber', { label: '年龄', minimum: 0, maximum: 150 }, 151, '年龄须在0到150之间'],
  ['formNumber', { label: '年龄', minimum: 0, maximum: 150, rangeMessage: '年龄不合理' }, -1, '年龄不合理'],
  ['formNumber', { label: '年龄', minimum: 1, maximum: null }, 0, '年龄不能小于1'],
  ['formNumber', { label: '年龄', minimum: null, maximum: 9 }, 10, '年龄不能大于9'],
  ['formNumber', { label: '年龄' }, 1.5, '年龄最多保留0位小数'],
  ['formNumber', { label: '金额', precision: 2 }, 1.25, 'ok 1.25'],
  ['formNumber', { label: '金额', precision: 2 }, -1.255, '金额最多保留2位小数'],
  ['formNumber', { label: '金额', precision: 2 }, 1e-7, '金额最多保留2位小数'],
  ['formNumber', { label: '金额', precision: 2 }, 1e21, 'ok 1e+21'],
  ['formNumber', { label: '年龄' }, '18', '年龄类型错误'],
  ['formNumber', { label: '年龄' }, Number.NaN, '年龄类型错误'],
  ['formNumber', { label: '年龄' }, true, '年龄类型错误'],
  ['formNumber', { label: '年龄', required: true }, null, '请输入年龄'],
  ['formNumber', { label: '年龄', required: true }, 0, 'ok 0'],
  // select / radio: among the options (typed, or the dictionary's in its own type), 请选择 when required
  ['formSelect', { label: '城市', options: OPTIONS }, '2', 'ok "2"'],
  ['formSelect', { label: '城市', options: OPTIONS }, '4', '城市的取值不在选项中'],
  ['formSelect', { label: '城市', options: OPTIONS }, ['1'], '城市类型错误'],
  ['formSelect', { label: '城市', options: OPTIONS, required: true }, '', '请选择城市'],
  ['formSelect', { label: '环境', dict: 'ENV_TYPE' }, 'prod', 'ok "prod"'],
  ['formSelect', { label: '环境', dict: 'ENV_TYPE' }, '1', '环境的取值不在选项中'],
  ['formSelect', { label: '环境', dict: 'NO_SUCH' }, 'prod', '环境的取值不在选项中'],
  ['formRadio', { label: '同意', dict: 'YES_OR_NO' }, '1', 'ok 1'],
  ['formRadio', { label: '同意', dict: 'YES_OR_NO' }, 0, 'ok 0'],
  ['formRadio', { label: '同意', dict: 'YES_OR_NO' }, 2, '同意的取值不在选项中'],
  ['formRadio', { label: '同意', dict: 'YES_OR_NO', required: true }, undefined, '请选择同意'],
  // checkbox: a list of distinct options, item counts
  ['formCheckbox', { label: '标签', options: OPTIONS }, ['2', '1'], 'ok ["2","1"]'],
  ['formCheckbox', { label: '标签', options: OPTIONS, minItems: 2 }, ['1'], '标签至少选择2项'],
  ['formCheckbox', { label: '标签', options: OPTIONS, maxItems: 2 }, ['1', '2', '3'], '标签最多选择2项'],
  ['formCheckbox', { label: '标签', options: OPTIONS }, ['1', '9'], '标签的取值不在选项中'],
  ['formCheckbox', { label: '标签', options: OPTIONS }, ['1', '1'], '标签类型错误'],
  ['formCheckbox', { label: '标签', options: OPTIONS }, '1', '标签类型错误'],
  ['formCheckbox', { label: '标签', options: OPTIONS, minItems: 2 }, [], 'empty'],
  ['formCheckbox', { label: '标签', options: OPTIONS, required: true }, [], '请选择标签'],
  // switch: a boolean, never required
  ['formSwitch', { label: '订阅', required: true }, false, 'ok false'],
  ['formSwitch', { label: '订阅', required: true }, undefined, 'empty'],
  ['formSwitch', { label: '订阅' }, 'true', '订阅类型错误'],
  ['formSwitch', { label: '订阅' }, 1, '订阅类型错误'],
  // date: a real calendar day written YYYY-MM-DD
  ['formDate', { label: '日期' }, '2024-02-29', 'ok "2024-02-29"'],
  ['formDate', { label: '日期' }, '2023-02-29', '日期不是有效日期'],
  ['formDate', { label: '日期' }, '2024-1-01', '日期不是有效日期'],
  ['formDate', { label: '日期' }, 20240101, '日期类型错误'],
  ['formDate', { label: '日期', required: true }, '', '请选择日期'],
  // date range: two real days in order; one end missing is a date missing; both cleared is empty
  ['formDateRange', { label: '行程' }, ['2024-01-01', '2024-01-01'], 'ok ["2024-01-01","2024-01-01"]'],
  ['formDateRange', { label: '行程' }, ['2024-01-02', '2024-01-01'], '行程的开始日期不能晚于结束日期'],
  ['formDateRange', { label: '行程' }, ['2024-01-02', 'x'], '行程不是有效日期'],
  ['formDateRange', { label: '行程' }, ['2024-01-02', ''], '行程不是有效日期'],
  ['formDateRange', { label: '行程' }, [null, '2024-01-02'], '行程不是有效日期'],
  ['formDateRange', { label: '行程' }, [null, null], 'empty'],
  ['formDateRange', { label: '行程', required: true }, ['', ''], '请选择行程'],
  ['formDateRange', { label: '行程' }, ['2024-01-02'], '行程类型错误'],
  ['formDateRange', { label: '行程' }, [1, 2], '行程类型错误'],
  ['formDateRange', { label: '行程' }, '2024-01-01 ~ 2024-01-02', '行程类型错误'],
  // image: at most maxCount of this product's own form upload URLs, each once
  ['formImage', { label: '照片', maxCount: 2 }, [IMG, IMG2], `ok ${JSON.stringify([IMG, IMG2])}`],
  ['formImage', { label: '照片', maxCount: 1 }, [IMG, IMG2], '照片最多上传1张图片'],
  ['formImage', { label: '照片' }, [IMG, IMG2], '照片最多上传1张图片'],
  ['formImage', { label: '照片', maxCount: 2 }, [IMG, IMG], '照片类型错误'],
  ['formImage', { label: '照片', maxCount: 2 }, ['https://evil.example/a.png'], '照片类型错误'],
  ['formImage', { label: '照片', maxCount: 2 }, ['/files/form/../x.png'], '照片类型错误'],
  ['formImage', { label: '照片', maxCount: 2 }, [`${IMG}?x`], '照片类型错误'],
  ['formImage', { label: '照片', maxCount: 2 }, IMG, '照片类型错误'],
  ['formImage', { label: '照片', required: true }, [], '请选择照片'],
  // the label: trimmed, else the kind's title
  ['formInput', { label: '  ', required: true }, '', '请输入单行文本'],
  ['formInput', { label: ' 姓名 ', required: true }, '', '请输入姓名'],
];

function outcome(kind: string, props: Record<string, unknown>, value: unknown): string {
  const def = fieldDefOf(kind, props, '单行文本', dicts)!;
  const r = checkField(def, value, env);
  if (r === null) return 'empty';
  return 'fault' in r ? r.fault : `ok ${JSON.stringify(r.value)}`;
}

describe('form field rules (common/fields.ts), every kind', () => {
  for (const [kind, props, value, expected] of table) {
    it(`${kind} ${JSON.stringify(props)} ← ${JSON.stringify(value) ?? 'undefined'}: ${expected}`, () => {
      expect(outcome(kind, props, value)).toBe(expected);
      const def = fieldDefOf(kind, props, '单行文本', dicts)!;
      expect(fieldFault(def, value, env)).toBe(expected.startsWith('ok') || expected === 'empty' ? null : expected);
    });
  }

  it('the texts a stored value reads as', () => {
    const text = (kind: string, props: Record<string, unknown>, value: unknown) => (checkField(fieldDefOf(kind, props, '', dicts)!, value, env) as { text: string }).text;
    expect(text('formCheckbox', { options: OPTIONS }, ['2', '1'])).toBe('选项二、选项一');
    expect(text('formRadio', { dict: 'YES_OR_NO' }, 1)).toBe('是');
    expect(text('formSwitch', {}, false)).toBe('否');
    expect(text('formDateRange', {}, ['2024-01-01', '2024-01-03'])).toBe('2024-01-01 ~ 2024-01-03');
  });

  it('kinds without a value have no rules; empty is what a required rule reads as empty', () => {
    expect(fieldDefOf('formSubmit', {}, '', dicts)).toBeNull();
    expect(fieldDefOf('singleLineTitle', {}, '', dicts)).toBeNull();
    expect(isEmptyValue('checkbox', [''])).toBe(false);
    expect(isEmptyValue('dateRange', ['', null])).toBe(true);
  });

  it('a pattern the caller cannot compile is skipped (browser), or refused by the caller (server)', () => {
    const def = fieldDefOf('formInput', { label: '编码', patternPreset: CUSTOM_PATTERN, customPattern: '(' }, '', dicts)!;
    expect(fieldFault(def, 'x', { messages, regExp: () => null })).toBeNull();
    expect(() =>
      fieldFault(def, 'x', {
        messages,
        regExp: () => {
          throw new Error('表单配置有误');
        },
      }),
    ).toThrow('表单配置有误');
  });

  it('an image is one of the form uploads by its address', () => {
    expect(FORM_FILE_URL.test(IMG)).toBe(true);
    expect(FORM_FILE_URL.test('/files/wiki/0f8fad5b-d9cb-469f-a165-70867728950e.png')).toBe(false);
  });
});
