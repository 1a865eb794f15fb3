import { categoryOption, mappedSeries, nameValueItems } from './options';

const data = {
  mapping: [
    { id: '1', prop: 'x', label: '日期', field: 'day' },
    { id: '2', prop: 's1', label: '访问量', field: 'visits' },
    { id: '3', prop: 's2', label: '', field: 'orders' },
  ],
  rows: [
    { x: '周一', s1: 3, s2: '7' },
    { x: '周二', s1: 'x' },
  ],
};
const look = { colors: ['#111111'], axisColor: '#A8B3CF', showLegend: true, showLabel: false };

describe('chart options from the data mapping', () => {
  it('makes a series of every mapping entry but the reserved ones, named by its label (its prop when unlabelled)', () => {
    expect(mappedSeries(data, ['x'])).toEqual([
      { prop: 's1', name: '访问量' },
      { prop: 's2', name: 's2' },
    ]);
  });

  it('puts the categories on x and the numeric values in each series', () => {
    const o = categoryOption(look, data, (values) => ({ type: 'line', data: values }));
    expect(o.xAxis).toMatchObject({ type: 'category', data: ['周一', '周二'] });
    expect(o.yAxis).toMatchObject({ type: 'value' });
    expect(o.series).toEqual([
      { name: '访问量', type: 'line', data: [3, 0] },
      { name: 's2', type: 'line', data: [7, 0] },
    ]);
    expect(o.legend).toMatchObject({ show: true, textStyle: { color: '#A8B3CF' } });
  });

  it('lays categories on y for horizontal bars, the first row on top', () => {
    const o = categoryOption(look, data, (values) => ({ data: values }), { horizontal: true });
    expect(o.yAxis).toMatchObject({ type: 'category', data: ['周二', '周一'] });
    expect(o.xAxis).toMatchObject({ type: 'value' });
    expect(o.series[0]).toMatchObject({ data: [0, 3] });
  });

  it('reads name/value items', () => {
    expect(nameValueItems({ mapping: [], rows: [{ name: '甲', value: '2' }, { value: 1 }] })).toEqual([
      { name: '甲', value: 2 },
      { name: '', value: 1 },
    ]);
  });
});
