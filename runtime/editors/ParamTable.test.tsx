import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { mergeJson, ParamTable, valuesOf, type ParamRow } from './ParamTable';

const rows: ParamRow[] = [
  { paramName: 'id', paramType: 'integer', paramValue: '7', paramComment: '编号' },
  { paramName: 'name', paramType: 'string', paramValue: "' or 1=1 --", paramComment: '' },
  { paramName: 'on', paramType: 'boolean', paramValue: 'true' },
];

describe('parameter rows and their JSON', () => {
  it('types the sample values as a request body carries them', () => {
    expect(valuesOf(rows)).toEqual({ id: 7, name: "' or 1=1 --", on: true });
  });

  it('merges edited JSON back into the rows, keeping types and comments of known names', () => {
    const merged = mergeJson(rows, '{"id": 9, "extra": 1.5}') as ParamRow[];
    expect(merged).toEqual([
      { paramName: 'id', paramType: 'integer', paramValue: '9', paramComment: '编号' },
      { paramName: 'extra', paramType: 'number', paramValue: '1.5', paramComment: '' },
    ]);
  });

  it('names what is wrong with bad JSON instead of changing the rows', () => {
    expect(mergeJson(rows, '{')).toBe('不是合法的 JSON');
    expect(mergeJson(rows, '[1]')).toMatch(/必须是对象/);
    expect(mergeJson(rows, '{"a b": 1}')).toBe('参数名不合法：a b');
  });

  it('adds, edits and deletes rows in the table', () => {
    function Host() {
      const [v, setV] = useState<ParamRow[]>([]);
      return (
        <>
          <ParamTable value={v} onChange={setV} withComment />
          <output data-testid="out">{JSON.stringify(v)}</output>
        </>
      );
    }
    render(<Host />);
    fireEvent.click(screen.getByText('添加参数'));
    fireEvent.change(screen.getByLabelText('参数名1'), { target: { value: 'code' } });
    fireEvent.change(screen.getByLabelText('参数值1'), { target: { value: 'A1' } });
    expect(JSON.parse(screen.getByTestId('out').textContent!)).toEqual([{ paramName: 'code', paramType: 'string', paramValue: 'A1', paramComment: '' }]);
    fireEvent.click(screen.getByLabelText('删除参数1'));
    expect(screen.getByTestId('out').textContent).toBe('[]');
  });
});
