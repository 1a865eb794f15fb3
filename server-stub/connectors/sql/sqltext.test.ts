// Reading a statement's text for the plan's warnings (sqltext.ts): LIMIT outside literals and comments, the FROM
// items' aliases, and joins written without a condition.
import { bareText, hasRowLimit, tableAliases, textCrossJoins } from './sqltext.js';

describe('statement text', () => {
  it('sees LIMIT, FETCH FIRST and TOP, not a word in a literal, a comment or a name', () => {
    expect(hasRowLimit('select * from t limit 10')).toBe(true);
    expect(hasRowLimit('select * from t LIMIT :n')).toBe(true);
    expect(hasRowLimit('select * from t limit ?')).toBe(true);
    expect(hasRowLimit('select * from t offset 5 rows fetch first 10 rows only')).toBe(true);
    expect(hasRowLimit('select top 5 * from t')).toBe(true);
    expect(hasRowLimit("select * from t where note = 'limit 10'")).toBe(false);
    expect(hasRowLimit('select * from t -- limit 10')).toBe(false);
    expect(hasRowLimit('select * from t /* limit 10 */')).toBe(false);
    expect(hasRowLimit('select limit_value from t')).toBe(false);
    expect(bareText("select 'a''b', \"Col\" -- x\nfrom t")).toBe("select '', Col  \nfrom t");
  });

  it('maps aliases to tables, through comma lists and joins, schema names dropped', () => {
    expect(tableAliases('select * from big a, small as b join s.other o on o.id = a.id where a.x = 1')).toEqual({ big: 'big', a: 'big', small: 'small', b: 'small', other: 'other', o: 'other' });
    expect(tableAliases('select * from big where id = 1')).toEqual({ big: 'big' });
  });

  it('finds joins without a condition: comma lists with no linking WHERE, CROSS JOIN, JOIN without ON', () => {
    expect(textCrossJoins('select * from big a, small b limit 10')).toEqual([['a', 'b']]);
    expect(textCrossJoins('select * from big a, small b where b.id = a.sid')).toEqual([]);
    expect(textCrossJoins('select * from big a, small b where a.sid = b.id and a.x > 1')).toEqual([]);
    expect(textCrossJoins('select * from big a, small b where a.x = 1')).toEqual([['a', 'b']]);
    expect(textCrossJoins('select * from big a cross join small b')).toEqual([['a', 'b']]);
    expect(textCrossJoins('select * from big a join small b on b.id = a.sid')).toEqual([]);
    expect(textCrossJoins('select * from big a join small b using (id)')).toEqual([]);
    expect(textCrossJoins('select * from big a natural join small b')).toEqual([]);
    expect(textCrossJoins('select * from big a join small b where a.x = 1')).toEqual([['…', 'b']]);
    expect(textCrossJoins("select * from big a where a.note = 'x, y'")).toEqual([]);
  });
});
