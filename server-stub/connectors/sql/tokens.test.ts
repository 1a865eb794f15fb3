// The dialect lexer behind the API script checks (issue 40): a ';' or a name is code only where the dialect reads
// it as code.
import { checkApiScript } from './script-check.js';
import { calledFunctions, statementsOf, tokenize } from './tokens.js';
import type { DbType } from './types.js';

const count = (sql: string, d: DbType) => statementsOf(tokenize(sql, d)).length;

describe('the dialect lexer', () => {
  it('counts statements as each dialect reads its quotes and comments', () => {
    // PostgreSQL: nested comments, dollar quotes, E'' strings with backslash escapes; a backslash in '' is plain
    expect(count(`select 1 /* a /* nested ; */ still ; */ ; `, 'postgresql')).toBe(1);
    expect(count(`select $f$ ; $f$, $$;$$`, 'postgresql')).toBe(1);
    expect(count(`select E'\\'; select 2'`, 'postgresql')).toBe(1);
    expect(count(`select '\\'; select 2`, 'postgresql')).toBe(2);
    // MySQL: a backslash escapes in '' and "", # starts a comment, `` quotes a name
    expect(count(`select '\\'; select 2'`, 'mariadb')).toBe(1);
    expect(count(`select 1 # ; select 2\n`, 'mysql')).toBe(1);
    expect(count("select `a;b` from t; delete from t", 'mariadb')).toBe(2);
    // SQLite: [names], no backslash escapes, no # comments
    expect(count(`select [a;b] from t`, 'sqlite')).toBe(1);
    expect(count(`select '\\'; select 2`, 'sqlite')).toBe(2);
  });

  it('refuses what could hide code: MySQL executable comments, PostgreSQL U& escapes, an unterminated quote', () => {
    expect(() => checkApiScript(`select 1 /*!50000 ; delete from t */`, 'mariadb')).toThrow('可执行注释');
    expect(() => checkApiScript(`select 1 /*M! , load_file('x') */`, 'mariadb')).toThrow('可执行注释');
    expect(() => checkApiScript(`select U&"\\0071uery_to_xml"('select 1', true, false, '')`, 'postgresql')).toThrow('U&');
    expect(() => checkApiScript(`select 'abc`, 'postgresql')).toThrow('没有结束');
    expect(() => checkApiScript(`select 1 /* open`, 'sqlite')).toThrow('没有结束');
  });

  it('finds called functions by name, quoted or schema-qualified, with comments before the parenthesis', () => {
    const names = (sql: string, d: DbType) => calledFunctions(tokenize(sql, d)).map((f) => f.name);
    expect(names(`select pg_catalog."Query_To_Xml" /* x */ ('q'), count(*) from t where x in (1)`, 'postgresql')).toEqual(['query_to_xml', 'count', 'in']);
    expect(names("select `LOAD_FILE`('x')", 'mysql')).toEqual(['load_file']);
    expect(names(`select 'load_file(' as x`, 'mysql')).toEqual([]);
  });
});
