import panel from '../schemas/widgets/interaction.panel.json';
import {
  DRILL_MAX,
  drillCrumbs,
  drillDown,
  drillParams,
  FIELD_NAME,
  interactionFault,
  isInteractive,
  JUMP_PARAMS_MAX,
  JUMP_TO_MAX,
  jumpUrl,
  LINKAGE_MAX,
  linkageValues,
  toggleLinkage,
  type DrillLevel,
} from './interaction';
import type { ScreenVariable } from './variables';

const vars: ScreenVariable[] = [
  { name: 'region', title: '地区', type: 'string' },
  { name: 'year', type: 'number' },
  { name: 'cities', type: 'list' },
];
const bar = { name: '华东', series: '销售额', value: 120, region: '华东', sales: 120, year: '2024' };

describe('click interactions (issue 23 §3–§5)', () => {
  it('accepts a full declaration and nothing', () => {
    expect(interactionFault(undefined, vars)).toBeNull();
    expect(interactionFault(null, vars)).toBeNull();
    expect(
      interactionFault(
        {
          linkage: [{ field: 'region', variable: 'region' }, { field: '年份', variable: 'year' }],
          drill: [{ title: '省份', field: 'name', param: 'province' }, { field: 'name', param: 'city' }],
          jump: { target: 'screen', to: '12', newTab: true, params: [{ field: 'name', param: 'region' }] },
        },
        vars,
      ),
    ).toBeNull();
    expect(interactionFault({ jump: { target: '', to: '', newTab: false, params: [] } }, vars)).toBeNull();
  });

  it('refuses in Chinese what is not safe or not declared', () => {
    expect(interactionFault({ linkage: [{ field: 'region', variable: 'nope' }] }, vars)).toBe('联动第 1 条的变量【nope】未在画布的变量中声明');
    expect(interactionFault({ linkage: [{ field: 'a b', variable: 'region' }] }, vars)).toMatch(/^联动第 1 条的字段名不合法/);
    expect(interactionFault({ linkage: [{ field: 'a', variable: 'region' }, { field: 'b', variable: 'region' }] }, vars)).toBe('联动中变量【region】重复');
    expect(interactionFault({ jump: { target: 'url', to: 'javascript:alert(1)' } }, vars)).toBe('跳转的网址只能是 http:// 或 https:// 开头的地址');
    expect(interactionFault({ jump: { target: 'url', to: 'data:text/html,<b>' } }, vars)).toMatch(/http/);
    expect(interactionFault({ jump: { target: 'page', to: '//evil.example.com/x' } }, vars)).toMatch(/本系统的路径/);
    expect(interactionFault({ jump: { target: 'page', to: 'https://evil.example.com/' } }, vars)).toMatch(/本系统的路径/);
    expect(interactionFault({ jump: { target: 'screen', to: '1; drop' } }, vars)).toBe('跳转的大屏编号应为正整数');
    expect(interactionFault({ jump: { target: 'url', to: '' } }, vars)).toBe('跳转未填写目标');
    expect(interactionFault({ drill: [{ field: 'name', param: 'p' }, { field: 'name', param: 'p' }] }, vars)).toBe('下钻中请求参数【p】重复');
    expect(interactionFault({ drill: Array.from({ length: DRILL_MAX + 1 }, (_, i) => ({ field: 'f', param: `p${i}` })) }, vars)).toBe(`下钻至多 ${DRILL_MAX} 层`);
    expect(interactionFault({ linkage: Array.from({ length: LINKAGE_MAX + 1 }, () => ({ field: 'f', variable: 'region' })) }, vars)).toBe(`联动至多 ${LINKAGE_MAX} 条`);
    expect(interactionFault({ other: 1 }, vars)).toBe('交互设置有未知的属性：other');
    expect(interactionFault('x', vars)).toBe('交互设置应为对象');
  });

  it('keeps the panel schema and the checks in step', () => {
    const p = panel.schema.properties;
    expect(p.linkage.maxItems).toBe(LINKAGE_MAX);
    expect(p.drill.maxItems).toBe(DRILL_MAX);
    expect(p.jump.properties.params.maxItems).toBe(JUMP_PARAMS_MAX);
    expect(p.jump.properties.to.maxLength).toBe(JUMP_TO_MAX);
    expect(p.linkage.items.properties.field.pattern).toBe(FIELD_NAME.source);
  });

  it('sets the linked variables from a click, coerced by type, and clears them on the same click again', () => {
    const rules = [{ field: 'region', variable: 'region' }, { field: 'year', variable: 'year' }, { field: 'sales', variable: 'cities' }];
    const set = linkageValues(rules, bar, vars);
    expect(set).toEqual({ region: '华东', year: 2024, cities: ['120'] });
    expect(linkageValues([{ field: 'region', variable: 'year' }], bar, vars)).toEqual({ year: null });
    expect(linkageValues([{ field: 'region', variable: 'undeclared' }], bar, vars)).toEqual({});
    expect(toggleLinkage(rules, bar, vars, { region: null, year: null, cities: null })).toEqual(set);
    expect(toggleLinkage(rules, bar, vars, set)).toEqual({ region: null, year: null, cities: null });
    expect(toggleLinkage(rules, { ...bar, region: '华南' }, vars, set)).toEqual({ ...set, region: '华南' });
    // another item with the same values (a city of the chosen province) keeps them
    expect(toggleLinkage(rules, bar, vars, set, false)).toEqual(set);
  });

  it('goes down the drill path and back, adding each level’s parameter', () => {
    const levels: DrillLevel[] = [{ title: '省份', field: 'name', param: 'province' }, { title: '城市', field: 'name', param: 'city' }];
    const one = drillDown(levels, [], { name: '浙江' })!;
    const two = drillDown(levels, one, { name: '杭州' })!;
    expect(two).toEqual(['浙江', '杭州']);
    expect(drillDown(levels, two, { name: '西湖区' })).toBeNull();
    expect(drillDown(levels, one, { other: 1 })).toBeNull();
    expect(drillDown(levels, [], { name: { toString: () => 'x' } })).toBeNull();
    expect(drillParams(levels, two)).toEqual({ province: '浙江', city: '杭州' });
    expect(drillParams(levels, two.slice(0, 1))).toEqual({ province: '浙江' });
    expect(drillCrumbs(levels, two)).toEqual(['全部', '省份：浙江', '城市：杭州']);
  });

  it('builds jump addresses from clicked fields, same origin or http(s) only', () => {
    const params = [{ field: 'region', param: 'region' }, { field: 'missing', param: 'x' }];
    expect(jumpUrl({ target: 'screen', to: '7', params }, bar)).toBe('/datav/screen/preview?pageId=7&region=%E5%8D%8E%E4%B8%9C');
    expect(jumpUrl({ target: 'form', to: '8', params: [] }, bar)).toBe('/form/fill?pageId=8');
    expect(jumpUrl({ target: 'page', to: '/system/user', params }, bar)).toBe('/system/user?region=%E5%8D%8E%E4%B8%9C');
    expect(jumpUrl({ target: 'url', to: 'https://report.example.com/a?b=1', params: [{ field: 'value', param: 'v' }] }, bar)).toBe('https://report.example.com/a?b=1&v=120');
    expect(jumpUrl({ target: 'url', to: 'javascript:alert(1)' }, bar)).toBeNull();
    expect(jumpUrl({ target: 'page', to: '//evil.example.com' }, bar)).toBeNull();
    expect(jumpUrl({ target: '', to: '7' }, bar)).toBeNull();
    expect(isInteractive({ jump: { target: '', to: '' } })).toBe(false);
    expect(isInteractive({ linkage: [{ field: 'a', variable: 'region' }] })).toBe(true);
  });
});
