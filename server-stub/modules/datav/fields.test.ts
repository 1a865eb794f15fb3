// The derived validation of a form submission (fields.ts), kind by kind, on widgets built from the real
// declarations' defaults and with the real message templates: what passes, what is stored, and the exact
// message of each refusal.
import path from 'node:path';
import { loadSchemas } from '../../core/schemas.js';
import { BizError } from '../../core/envelope.js';
import { newWidgetProps, type WidgetDeclaration } from './declarations.js';
import { decimalsOf, fieldsOf, fillTemplate, formValidator, isDate, isReservedField, newFieldName, type FormWidget } from './fields.js';

const schemas = loadSchemas(path.resolve(import.meta.dirname, '../../..'));
const env = { messages: schemas.messages, dicts: schemas.dicts };
const IMG = '/files/form/0f8fad5b-d9cb-469f-a165-70867728950e.png';

/** A widget of a kind with its declared defaults, a field name and overrides. */
function widget(kind: string, field: string, props: Record<string, unknown> = {}): FormWidget {
  const d = schemas.widgets[kind] as WidgetDeclaration;
  const viewProps = { ...newWidgetProps(d, {}).viewProps, ...(field ? { field } : {}), ...props };
  return { widgetName: kind, widgetTitle: d.catalogue.widgetTitle, viewProps };
}

/** The message a submission is refused with, or 'ok' with what would be stored. */
function outcome(widgets: FormWidget[], values: unknown): string {
  try {
    const sub = formValidator(widgets, env).validate(values);
    return `ok ${JSON.stringify(sub.data)}`;
  } catch (err) {
    if (err instanceof BizError) return err.message;
    throw err;
  }
}

describe('form fields', () => {
  it('names new fields after their kind with the smallest free number, and knows the reserved names', () => {
    expect(newFieldName('formInput', [])).toBe('input_1');
    expect(newFieldName('formInput', ['input_1', 'input_3'])).toBe('input_2');
    expect(newFieldName('formDateRange', ['input_1'])).toBe('daterange_1');
    for (const name of ['id', 'ID', 'formId', 'createUser', 'createtime', 'createIp', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype']) expect(isReservedField(name), name).toBe(true);
    for (const name of ['name', 'input_1', 'identity', 'created']) expect(isReservedField(name), name).toBe(false);
  });

  it('derives the fields in layer order: field kinds with a usable name, once each', () => {
    const fields = fieldsOf(
      [
        widget('formInput', 'name', { label: '姓名' }),
        { widgetName: 'singleLineTitle', viewProps: { text: 'x', field: 'title' } },
        widget('formSubmit', ''),
        widget('formSelect', 'city', { label: '' }),
        widget('formInput', 'name', { label: '重复' }),
        widget('formInput', '', { label: '无名' }),
        widget('formInput', 'createTime'),
      ],
      env,
    );
    expect(fields.map((f) => [f.field, f.label, f.kind])).toEqual([
      ['name', '姓名', 'input'],
      ['city', '下拉选择', 'select'],
    ]);
    expect(fields[1].options).toEqual([
      { label: '选项一', value: '1' },
      { label: '选项二', value: '2' },
      { label: '选项三', value: '3' },
    ]);
  });

  it('fills message templates and reads dates and decimals strictly', () => {
    expect(fillTemplate('{label}须在{min}到{max}之间', { label: '年龄', min: 1, max: 3 })).toBe('年龄须在1到3之间');
    expect(fillTemplate('{label}{nope}', { label: 'x' })).toBe('x{nope}');
    for (const d of ['2024-02-29', '2000-01-01', '1999-12-31']) expect(isDate(d), d).toBe(true);
    for (const d of ['2023-02-29', '2024-13-01', '2024-1-01', '2024-01-01 00:00:00', '20240101', '', '2024-04-31']) expect(isDate(d), d).toBe(false);
    expect([1, 1.5, 1.25, 0.1 + 0.2, 1e-7, 1e21, -2.5].map(decimalsOf)).toEqual([0, 1, 2, 17, 7, 0, 1]);
  });

  it('text: string, required (own message wins), length in characters, preset and custom patterns', () => {
    const phone = [widget('formInput', 'phone', { label: '手机', required: true, minLength: 0, maxLength: 11, patternPreset: '^1[3-9]\\d{9}$' })];
    expect(outcome(phone, { phone: '13800138000' })).toBe('ok {"phone":"13800138000"}');
    expect(outcome(phone, {})).toBe('请输入手机');
    expect(outcome(phone, { phone: '' })).toBe('请输入手机');
    expect(outcome(phone, { phone: null })).toBe('请输入手机');
    expect(outcome(phone, { phone: 13800138000 })).toBe('手机类型错误');
    expect(outcome(phone, { phone: '12345678901' })).toBe('手机格式不正确');
    expect(outcome(phone, { phone: '138001380001' })).toBe('手机长度须在0到11个字符之间');
    const own = [widget('formInput', 'phone', { label: '手机', required: true, requiredMessage: '手机必须填', patternPreset: '^1[3-9]\\d{9}$', patternMessage: '请输入正确的手机号码', lengthMessage: '太长了', maxLength: 11 })];
    expect(outcome(own, {})).toBe('手机必须填');
    expect(outcome(own, { phone: '1' })).toBe('请输入正确的手机号码');
    expect(outcome(own, { phone: '1'.repeat(12) })).toBe('太长了');
    const email = [widget('formInput', 'mail', { label: '邮箱', patternPreset: '^[^\\s@]+@[^\\s@.]+(\\.[^\\s@.]+)+$' })];
    expect(outcome(email, { mail: 'a@b.cn' })).toBe('ok {"mail":"a@b.cn"}');
    expect(outcome(email, { mail: 'a@b' })).toBe('邮箱格式不正确');
    expect(outcome(email, {})).toBe('ok {}'); // not required: empty passes, rules are not run on it
    const idNo = [widget('formInput', 'idNo', { label: '身份证号', patternPreset: '^(\\d{15}|\\d{17}[\\dXx])$' })];
    expect(outcome(idNo, { idNo: '11010519491231002X' })).toBe('ok {"idNo":"11010519491231002X"}');
    expect(outcome(idNo, { idNo: '1101051949123100' })).toBe('身份证号格式不正确');
    const custom = [widget('formInput', 'code', { label: '编码', patternPreset: 'custom', customPattern: '^[A-Z]{3}$' })];
    expect(outcome(custom, { code: 'ABC' })).toBe('ok {"code":"ABC"}');
    expect(outcome(custom, { code: 'abc' })).toBe('编码格式不正确');
    // trimmed, as the browser's rules read it
    expect(outcome([widget('formInput', 'code', { label: '编码', patternPreset: 'custom', customPattern: ' ^[A-Z]{3}$ ' })], { code: 'ABC' })).toBe('ok {"code":"ABC"}');
    expect(outcome([widget('formInput', 'code', { label: '编码', patternPreset: 'custom', customPattern: '^(a+)+$' })], { code: 'aaa' })).toMatch(/^表单配置有误：部件【编码】的格式校验可能导致灾难性回溯/);
    // characters, not UTF-16 units: two emoji are two characters
    const short = [widget('formTextarea', 'note', { label: '备注', minLength: 2, maxLength: 2 })];
    expect(outcome(short, { note: '😀😀' })).toBe('ok {"note":"😀😀"}');
    expect(outcome(short, { note: '字' })).toBe('备注长度须在2到2个字符之间');
    expect(outcome(short, { note: ['x'] })).toBe('备注类型错误');
  });

  it('number: finite number, range / min / max, precision', () => {
    const age = (p: object) => [widget('formNumber', 'age', { label: '年龄', ...p })];
    expect(outcome(age({ minimum: 0, maximum: 150 }), { age: 18 })).toBe('ok {"age":18}');
    expect(outcome(age({ minimum: 0, maximum: 150 }), { age: 151 })).toBe('年龄须在0到150之间');
    expect(outcome(age({ minimum: 0, maximum: 150, rangeMessage: '年龄不合理' }), { age: -1 })).toBe('年龄不合理');
    expect(outcome(age({ minimum: 1 }), { age: 0 })).toBe('年龄不能小于1');
    expect(outcome(age({ maximum: 9 }), { age: 10 })).toBe('年龄不能大于9');
    expect(outcome(age({}), { age: 1.5 })).toBe('年龄最多保留0位小数');
    expect(outcome(age({ precision: 2 }), { age: 1.25 })).toBe('ok {"age":1.25}');
    expect(outcome(age({ precision: 2 }), { age: 1.255 })).toBe('年龄最多保留2位小数');
    for (const bad of ['18', true, [1], { n: 1 }]) expect(outcome(age({}), { age: bad }), JSON.stringify(bad)).toBe('年龄类型错误');
    expect(outcome(age({ required: true }), {})).toBe('请输入年龄');
    expect(outcome(age({ required: true }), { age: 0 })).toBe('ok {"age":0}');
  });

  it('select and radio: a value among the options or the dictionary; checkbox: unique values, item counts', () => {
    const sel = [widget('formSelect', 'city', { label: '城市', required: true })];
    expect(outcome(sel, { city: '2' })).toBe('ok {"city":"2"}');
    expect(outcome(sel, { city: '4' })).toBe('城市的取值不在选项中');
    expect(outcome(sel, { city: ['1'] })).toBe('城市类型错误');
    expect(outcome(sel, {})).toBe('请选择城市');
    // a dictionary's values, typed as the dictionary types them (YES_OR_NO holds numbers)
    const yes = [widget('formRadio', 'ok', { label: '同意', dict: 'YES_OR_NO' })];
    expect(outcome(yes, { ok: 1 })).toBe('ok {"ok":1}');
    expect(outcome(yes, { ok: '0' })).toBe('ok {"ok":0}');
    expect(outcome(yes, { ok: 2 })).toBe('同意的取值不在选项中');
    const env2 = [widget('formSelect', 'env', { label: '环境', dict: 'ENV_TYPE' })];
    expect(outcome(env2, { env: 'prod' })).toBe('ok {"env":"prod"}');
    expect(outcome(env2, { env: '1' })).toBe('环境的取值不在选项中');
    const box = [widget('formCheckbox', 'tags', { label: '标签', minItems: 2, maxItems: 2 })];
    expect(outcome(box, { tags: ['1', '3'] })).toBe('ok {"tags":["1","3"]}');
    expect(outcome(box, { tags: ['1'] })).toBe('标签至少选择2项');
    expect(outcome(box, { tags: ['1', '2', '3'] })).toBe('标签最多选择2项');
    expect(outcome(box, { tags: ['1', '9'] })).toBe('标签的取值不在选项中');
    expect(outcome(box, { tags: ['1', '1'] })).toBe('标签类型错误');
    expect(outcome(box, { tags: '1' })).toBe('标签类型错误');
    expect(outcome(box, { tags: [] })).toBe('ok {}');
    expect(outcome([widget('formCheckbox', 'tags', { label: '标签', required: true })], { tags: [] })).toBe('请选择标签');
  });

  it('switch: a boolean, never required; dates: real YYYY-MM-DD, ranges in order', () => {
    const sw = [widget('formSwitch', 'agree', { label: '订阅', required: true })];
    expect(outcome(sw, { agree: false })).toBe('ok {"agree":false}');
    expect(outcome(sw, {})).toBe('ok {}');
    expect(outcome(sw, { agree: 'true' })).toBe('订阅类型错误');
    const day = [widget('formDate', 'day', { label: '日期', required: true })];
    expect(outcome(day, { day: '2024-02-29' })).toBe('ok {"day":"2024-02-29"}');
    expect(outcome(day, { day: '2023-02-29' })).toBe('日期不是有效日期');
    expect(outcome(day, { day: 20240101 })).toBe('日期类型错误');
    expect(outcome(day, { day: '' })).toBe('请选择日期');
    const range = [widget('formDateRange', 'trip', { label: '行程' })];
    expect(outcome(range, { trip: ['2024-01-01', '2024-01-01'] })).toBe('ok {"trip":["2024-01-01","2024-01-01"]}');
    expect(outcome(range, { trip: ['2024-01-02', '2024-01-01'] })).toBe('行程的开始日期不能晚于结束日期');
    expect(outcome(range, { trip: ['2024-01-02', 'x'] })).toBe('行程不是有效日期');
    expect(outcome(range, { trip: ['2024-01-02'] })).toBe('行程类型错误');
    // the range picker sends nothing for an end left empty: a date missing (as the browser says), not a wrong type;
    // both ends cleared is no value at all
    expect(outcome(range, { trip: [null, '2024-01-02'] })).toBe('行程不是有效日期');
    expect(outcome(range, { trip: [null, null] })).toBe('ok {}');
    expect(outcome(range, { trip: ['', ''] })).toBe('ok {}');
    expect(outcome([widget('formDateRange', 'trip', { label: '行程', required: true })], { trip: [null, null] })).toBe('请选择行程');
    expect(outcome(range, { trip: '2024-01-01 ~ 2024-01-02' })).toBe('行程类型错误');
  });

  it('image: at most maxCount of this product’s own form file URLs, reported for the caller to look up', () => {
    const pic = [widget('formImage', 'pic', { label: '照片', maxCount: 2, required: true })];
    const v = formValidator(pic, env);
    expect(v.validate({ pic: [IMG] }).images).toEqual([{ field: 'pic', url: IMG }]);
    expect(outcome(pic, { pic: [] })).toBe('请选择照片');
    expect(outcome(pic, { pic: [IMG, IMG.replace('0f8', '1f8'), IMG.replace('0f8', '2f8')] })).toBe('照片最多上传2张图片');
    for (const url of ['https://evil.example/a.png', '/files/wiki/0f8fad5b-d9cb-469f-a165-70867728950e.png', '/files/form/../x.png', `${IMG}?x`, 42]) expect(outcome(pic, { pic: [url] }), String(url)).toBe('照片类型错误');
    expect(outcome(pic, { pic: [IMG, IMG] })).toBe('照片类型错误');
    expect(outcome(pic, { pic: IMG })).toBe('照片类型错误');
    expect(v.unknownImage('pic').message).toBe('照片类型错误');
  });

  it('refuses unknown keys and a values that is no object; stores labels, kinds and texts of every field', () => {
    const form = [widget('formInput', 'name', { label: '姓名' }), widget('formCheckbox', 'tags', { label: '标签' }), widget('formSwitch', 'sub', { label: '订阅' }), widget('formDateRange', 'trip', { label: '行程' }), widget('formSubmit', '')];
    expect(outcome(form, { name: 'x', extra: 1 })).toBe('未知字段：extra');
    expect(outcome(form, { ['k'.repeat(100)]: 1 })).toBe(`未知字段：${'k'.repeat(40)}…`);
    expect(outcome(form, { __proto__: 1 } as never)).toBe('ok {}'); // a literal __proto__ sets the prototype: no own key
    expect(outcome(form, JSON.parse('{"constructor":1}'))).toBe('未知字段：constructor');
    for (const bad of [null, [], 'x', 1]) expect(outcome(form, bad)).toBe('提交内容格式不正确：values 应为对象');
    const sub = formValidator(form, env).validate({ name: '张三', tags: ['2', '1'], sub: true, trip: ['2024-01-01', '2024-01-03'] });
    expect(sub.data).toEqual({ name: '张三', tags: ['2', '1'], sub: true, trip: ['2024-01-01', '2024-01-03'] });
    expect(sub.labels).toEqual({ name: '姓名', tags: '标签', sub: '订阅', trip: '行程' });
    expect(sub.kinds).toEqual({ name: 'formInput', tags: 'formCheckbox', sub: 'formSwitch', trip: 'formDateRange' });
    expect(sub.texts).toEqual({ name: '张三', tags: '选项二、选项一', sub: '是', trip: '2024-01-01 ~ 2024-01-03' });
  });
});
