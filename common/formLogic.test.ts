// The field logic evaluator (common/formLogic.ts) and the sub-table's rules (common/fields.ts): what the
// browser's Formily reactions and the server's submission check both run.
import { describe, expect, it } from 'vitest';
import { messages } from './messages';
import { checkField, fieldDefOf, type RuleEnv } from './fields';
import { conditionHolds, evaluateLogic, logicRulesOf, type LogicField } from './formLogic';

const env: RuleEnv = { messages, regExp: (s) => new RegExp(s) };

describe('conditions', () => {
  const cases: Array<[string, string | undefined, string[] | undefined, unknown, boolean]> = [
    ['eq', 'yes', undefined, 'yes', true],
    ['eq', 'yes', undefined, 'no', false],
    ['eq', '1', undefined, 1, true],
    ['eq', 'true', undefined, true, true],
    ['eq', 'a', undefined, ['b', 'a'], true],
    ['eq', '', undefined, undefined, false],
    ['neq', 'yes', undefined, 'no', true],
    ['neq', 'yes', undefined, undefined, true],
    ['in', undefined, ['a', 'b'], 'b', true],
    ['in', undefined, ['a', 'b'], 'c', false],
    ['notIn', undefined, ['a', 'b'], 'c', true],
    ['empty', undefined, undefined, '', true],
    ['empty', undefined, undefined, [], true],
    ['notEmpty', undefined, undefined, 0, true],
    ['gt', '10', undefined, 11, true],
    ['gt', '10', undefined, '9', false],
    ['lt', '10', undefined, 9.5, true],
    ['lt', '10', undefined, 'abc', false],
    ['gt', '', undefined, 1, false],
  ];
  it.each(cases)('%s %s %j on %j → %s', (op, value, values, v, want) => {
    expect(conditionHolds({ op: op as never, value, values }, v)).toBe(want);
  });

  it('keeps only well-formed rules', () => {
    expect(
      logicRulesOf({
        logic: [
          { field: 'a', op: 'eq', value: 'x', effect: 'show' },
          { field: '', op: 'eq', effect: 'show' },
          { field: 'a', op: 'like', effect: 'show' },
          { field: 'a', op: 'eq', effect: 'explode' },
          'nonsense',
        ],
      }),
    ).toEqual([{ field: 'a', op: 'eq', value: 'x', values: [], effect: 'show' }]);
    expect(logicRulesOf({ logic: 'x' })).toEqual([]);
  });
});

describe('evaluateLogic', () => {
  const car: LogicField = { field: 'hasCar', props: {}, options: [{ label: '有', value: 'yes' }, { label: '无', value: 'no' }] };
  const plate: LogicField = { field: 'plate', props: { required: true, logic: [{ field: 'hasCar', op: 'eq', value: 'yes', effect: 'show' }] } };
  const color: LogicField = { field: 'color', props: { logic: [{ field: 'plate', op: 'notEmpty', effect: 'show' }, { field: 'plate', op: 'eq', value: 'X', effect: 'require' }] } };
  const note: LogicField = { field: 'note', props: { required: true, logic: [{ field: 'hasCar', op: 'eq', value: 'no', effect: 'disable' }] } };

  it('shows and requires a field by another one', () => {
    expect(evaluateLogic([car, plate], { hasCar: 'yes' }).states.plate).toEqual({ visible: true, required: true, disabled: false });
    expect(evaluateLogic([car, plate], { hasCar: 'no' }).states.plate).toEqual({ visible: false, required: false, disabled: false });
    expect(evaluateLogic([car, plate], {}).states.plate.visible).toBe(false);
  });

  it('drops a hidden field value, and the fields that follow it read it as empty', () => {
    const r = evaluateLogic([car, plate, color], { hasCar: 'no', plate: 'X', color: 'red' });
    expect(r.values).toEqual({ hasCar: 'no' });
    expect(r.states.color.visible).toBe(false);
    const shown = evaluateLogic([car, plate, color], { hasCar: 'yes', plate: 'X', color: 'red' });
    expect(shown.values).toEqual({ hasCar: 'yes', plate: 'X', color: 'red' });
    expect(shown.states.color).toEqual({ visible: true, required: true, disabled: false });
  });

  it('hide wins over show; a disabled field is not required', () => {
    const f: LogicField = { field: 'f', props: { logic: [{ field: 'a', op: 'notEmpty', effect: 'show' }, { field: 'a', op: 'eq', value: 'x', effect: 'hide' }] } };
    expect(evaluateLogic([f], { a: 'y' }).states.f.visible).toBe(true);
    expect(evaluateLogic([f], { a: 'x' }).states.f.visible).toBe(false);
    expect(evaluateLogic([car, note], { hasCar: 'no' }).states.note).toEqual({ visible: true, required: false, disabled: true });
    expect(evaluateLogic([car, note], { hasCar: 'yes' }).states.note).toEqual({ visible: true, required: true, disabled: false });
  });

  it('settles rules that go round in a circle', () => {
    const a: LogicField = { field: 'a', props: { logic: [{ field: 'b', op: 'notEmpty', effect: 'hide' }] } };
    const b: LogicField = { field: 'b', props: { logic: [{ field: 'a', op: 'notEmpty', effect: 'hide' }] } };
    const r = evaluateLogic([a, b], { a: '1', b: '2' });
    expect(Object.keys(r.states)).toEqual(['a', 'b']);
    expect(evaluateLogic([a, b], { a: '1', b: '2' })).toEqual(r); // the same answer every time
  });

  it('cascades options by the parent field value', () => {
    const city: LogicField = {
      field: 'city',
      props: { cascadeFrom: 'province' },
      options: [
        { label: '杭州', value: 'hz', parent: 'zj' },
        { label: '宁波', value: 'nb', parent: 'zj' },
        { label: '南京', value: 'nj', parent: 'js' },
        { label: '其他', value: 'other' },
      ],
    };
    expect(evaluateLogic([city], { province: 'zj' }).states.city.options?.map((o) => o.value)).toEqual(['hz', 'nb', 'other']);
    expect(evaluateLogic([city], { province: 'js' }).states.city.options?.map((o) => o.value)).toEqual(['nj', 'other']);
    expect(evaluateLogic([city], {}).states.city.options?.map((o) => o.value)).toEqual(['other']);
  });
});

describe('sub-table rules', () => {
  const props = {
    label: '明细',
    minRows: 1,
    maxRows: 3,
    columns: [
      { name: 'item', label: '名称', kind: 'text', required: true, maxLength: 10 },
      { name: 'qty', label: '数量', kind: 'number', minimum: 1, precision: 0 },
      { name: 'unit', label: '单位', kind: 'select', options: [{ label: '个', value: 'pc' }, { label: '箱', value: 'box' }] },
      { name: 'day', label: '日期', kind: 'date' },
    ],
  };
  const def = fieldDefOf('formSubTable', props, '子表', {})!;
  const check = (v: unknown, p = def) => checkField(p, v, env);

  it('stores checked rows and reads them one line a row', () => {
    expect(check([{ item: '苹果', qty: 3, unit: 'box' }, { item: '梨', day: '2026-01-02' }])).toEqual({
      value: [{ item: '苹果', qty: 3, unit: 'box' }, { item: '梨', day: '2026-01-02' }],
      text: '[1] 名称：苹果；数量：3；单位：箱\n[2] 名称：梨；日期：2026-01-02',
    });
  });

  it('refuses rows out of bounds, bad cells naming the row, unknown columns and non-rows', () => {
    expect(check([])).toBeNull(); // empty and not required
    expect(check([], fieldDefOf('formSubTable', { ...props, required: true }, '', {})!)).toEqual({ fault: '请输入明细' });
    expect(check([{ item: 'a' }, { item: 'b' }, { item: 'c' }, { item: 'd' }])).toEqual({ fault: '明细最多填写3行' });
    expect(check([{ item: 'a' }], fieldDefOf('formSubTable', { ...props, minRows: 2 }, '', {})!)).toEqual({ fault: '明细至少填写2行' });
    expect(check([{ item: 'a' }, { qty: 2 }])).toEqual({ fault: '明细第2行：请输入名称' });
    expect(check([{ item: 'a', qty: 0 }])).toEqual({ fault: '明细第1行：数量不能小于1' });
    expect(check([{ item: 'a', qty: 1.5 }])).toEqual({ fault: '明细第1行：数量最多保留0位小数' });
    expect(check([{ item: 'a', unit: 'kg' }])).toEqual({ fault: '明细第1行：单位的取值不在选项中' });
    expect(check([{ item: 'a', day: '2026-02-30' }])).toEqual({ fault: '明细第1行：日期不是有效日期' });
    expect(check([{ item: 'a', evil: 1 }])).toEqual({ fault: '明细第1行含未知列：evil' });
    expect(check(JSON.parse('[{"item":"a","__proto__":{"x":1}}]'))).toEqual({ fault: '明细第1行含未知列：__proto__' });
    expect(check(['a'])).toEqual({ fault: '明细类型错误' });
    expect(check({ item: 'a' })).toEqual({ fault: '明细类型错误' });
  });
});
