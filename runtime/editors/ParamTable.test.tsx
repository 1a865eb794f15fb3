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

describe('parameter names flagged while typing', () => {
  function Host({ initial, withRequired, withSecret }: { initial: ParamRow[]; withRequired?: boolean; withSecret?: boolean }) {
    const [v, setV] = useState<ParamRow[]>(initial);
    return (
      <>
        <ParamTable value={v} onChange={setV} withComment withRequired={withRequired} withSecret={withSecret} />
        <output data-testid="out">{JSON.stringify(v)}</output>
      </>
    );
  }

  it('marks a name typed a second time on both rows at once, and clears it when changed', () => {
    render(<Host initial={[{ paramName: 'name', paramType: 'string' }, { paramName: '', paramType: 'string' }]} />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('参数名2'), { target: { value: 'name' } });
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual(['参数名【name】重复', '参数名【name】重复']);
    expect(screen.getByLabelText('参数名1')).toHaveAttribute('aria-invalid', 'true');
    fireEvent.change(screen.getByLabelText('参数名2'), { target: { value: 'name2' } });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('参数名2'), { target: { value: '2x' } });
    expect(screen.getByRole('alert')).toHaveTextContent('只能包含字母、数字和下划线');
  });

  it('API request parameters: a 必填 box per row, kept through the JSON view', () => {
    render(<Host initial={[{ paramName: 'code', paramType: 'string', paramValue: '' }]} withRequired />);
    fireEvent.click(screen.getByLabelText('必填1'));
    expect(JSON.parse(screen.getByTestId('out').textContent!)[0]).toMatchObject({ paramName: 'code', required: true });
    expect(mergeJson([{ paramName: 'code', paramType: 'string', required: true }], '{"code": "A"}')).toEqual([{ paramName: 'code', paramType: 'string', paramValue: 'A', paramComment: '', required: true }]);
  });

  it('API request parameters: a 敏感 box per row, kept through the JSON view', () => {
    render(<Host initial={[{ paramName: 'code', paramType: 'string', paramValue: 'x' }]} withSecret />);
    fireEvent.click(screen.getByLabelText('敏感1'));
    expect(JSON.parse(screen.getByTestId('out').textContent!)[0]).toMatchObject({ paramName: 'code', secret: true });
    expect(mergeJson([{ paramName: 'code', paramType: 'string', secret: true }], '{"code": "A"}')).toEqual([{ paramName: 'code', paramType: 'string', paramValue: 'A', paramComment: '', secret: true }]);
  });
});
