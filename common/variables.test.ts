import { bindingOf, boundVariables, coerceValue, initialValues, resolveParams, variablesFault, type ScreenVariable } from './variables';

const vars: ScreenVariable[] = [
  { name: 'region', type: 'string', default: 'east' },
  { name: 'year', type: 'number' },
  { name: 'day', type: 'date' },
  { name: 'cities', type: 'list', default: '杭州,宁波' },
];

describe('screen variables (issue 23 §1, §8)', () => {
  it('reads a binding only from a whole {{name}} value', () => {
    expect(bindingOf('{{region}}')).toBe('region');
    expect(bindingOf(' {{ region }} ')).toBe('region');
    expect(bindingOf('x{{region}}')).toBeNull();
    expect(bindingOf("{{region}}' OR 1=1 --")).toBeNull();
    expect(bindingOf('{{1abc}}')).toBeNull();
    expect(bindingOf(3)).toBeNull();
    expect(boundVariables({ a: '{{region}}', b: 'fixed', c: '{{year}}', d: '{{region}}' })).toEqual(['region', 'year']);
  });

  it('sends a bound parameter the current value, leaves it out without one, passes constants as they are', () => {
    const params = { region: '{{region}}', size: 10, cities: '{{cities}}', nope: '{{undeclared}}' };
    expect(resolveParams(params, { region: 'west', cities: ['a', 'b'] })).toEqual({ region: 'west', size: 10, cities: 'a,b' });
    expect(resolveParams(params, { region: null, cities: [] })).toEqual({ size: 10 });
  });

  it('coerces text to the variable type and refuses what does not fit', () => {
    expect(coerceValue('number', '42')).toBe(42);
    expect(coerceValue('number', '4x')).toBeUndefined();
    expect(coerceValue('number', '')).toBeNull();
    expect(coerceValue('date', '2026-11-26')).toBe('2026-11-26');
    expect(coerceValue('date', "2026-11-26'; drop table x")).toBeUndefined();
    expect(coerceValue('list', 'a, b,,c')).toEqual(['a', 'b', 'c']);
    expect(coerceValue('string', 'x'.repeat(201))).toBeUndefined();
  });

  it('starts from the defaults, replaced by URL parameters of declared variables that fit their type', () => {
    expect(initialValues(vars, '?pageId=3&region=south&year=2025&evil=1&day=nope&cities=a&cities=b')).toEqual({
      region: 'south',
      year: 2025,
      day: null,
      cities: ['a', 'b'],
    });
    expect(initialValues(vars)).toEqual({ region: 'east', year: null, day: null, cities: ['杭州', '宁波'] });
  });

  it('says in Chinese what is wrong with a declared list', () => {
    expect(variablesFault(vars)).toBeNull();
    expect(variablesFault([{ name: 'a b', type: 'string' }])).toMatch(/名称不合法/);
    expect(variablesFault([{ name: 'a', type: 'string' }, { name: 'a', type: 'number' }])).toBe('变量名称【a】重复');
    expect(variablesFault([{ name: 'pageId', type: 'string' }])).toMatch(/预览地址自用/);
    expect(variablesFault([{ name: 'n', type: 'number', default: 'abc' }])).toBe('变量【n】的默认值不是数字');
    expect(variablesFault([{ name: 'n', type: 'sql' }])).toBe('变量【n】的类型不正确');
    expect(variablesFault([{ name: 'n', type: 'string', code: 'x' }])).toMatch(/未知的属性/);
    expect(variablesFault('x')).toBe('变量应为列表');
  });
});
