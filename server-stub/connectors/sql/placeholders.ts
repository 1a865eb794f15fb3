// Named parameters → driver placeholders, with the values bound (never spliced).
// Recognised: :name and #{name}. Skipped: string literals '...', quoted identifiers "..." and `...`,
// comments (-- and /* */), PostgreSQL casts (::type) and dollar-quoted bodies ($tag$...$tag$).
import { SqlConnectorError } from './types.js';
import type { DbType, SqlParams } from './types.js';

export function bindNamed(sql: string, params: SqlParams, dbType: DbType): { sql: string; values: unknown[] } {
  if (params == null) return { sql, values: [] };
  if (Array.isArray(params)) return { sql, values: params };
  if (typeof params !== 'object') throw new SqlConnectorError('参数必须是数组或对象', 'CONFIG');
  const values: unknown[] = [];
  const pgIndex = new Map<string, number>();
  let out = '';
  let i = 0;
  const n = sql.length;
  const place = (name: string) => {
    if (!Object.prototype.hasOwnProperty.call(params, name)) throw new SqlConnectorError(`缺少参数：${name}`, 'CONFIG');
    const v = (params as Record<string, unknown>)[name];
    if (dbType === 'postgresql') {
      let idx = pgIndex.get(name);
      if (!idx) {
        values.push(v);
        idx = values.length;
        pgIndex.set(name, idx);
      }
      return `$${idx}`;
    }
    values.push(v);
    return '?';
  };
  while (i < n) {
    const c = sql[i];
    const c2 = sql[i + 1];
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < n) {
        if (sql[j] === '\\' && dbType !== 'postgresql' && dbType !== 'sqlite') {
          j += 2;
          continue;
        }
        if (sql[j] === c) {
          if (sql[j + 1] === c) {
            j += 2;
            continue;
          }
          break;
        }
        j++;
      }
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' && c2 === '-') {
      const j = sql.indexOf('\n', i);
      const end = j < 0 ? n : j;
      out += sql.slice(i, end);
      i = end;
    } else if (c === '/' && c2 === '*') {
      const j = sql.indexOf('*/', i + 2);
      const end = j < 0 ? n : j + 2;
      out += sql.slice(i, end);
      i = end;
    } else if (c === '$' && dbType === 'postgresql' && /^\$[A-Za-z_]*\$/.test(sql.slice(i))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))![0];
      const j = sql.indexOf(tag, i + tag.length);
      const end = j < 0 ? n : j + tag.length;
      out += sql.slice(i, end);
      i = end;
    } else if (c === ':' && c2 === ':') {
      out += '::';
      i += 2;
    } else if (c === ':' && /[A-Za-z_]/.test(c2 ?? '') && sql[i - 1] !== ':') {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))!;
      out += place(m[0]);
      i += 1 + m[0].length;
    } else if (c === '#' && c2 === '{') {
      const j = sql.indexOf('}', i);
      const name = j < 0 ? '' : sql.slice(i + 2, j).trim();
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new SqlConnectorError(`参数占位符无效：${sql.slice(i, j + 1)}`, 'CONFIG');
      out += place(name);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return { sql: out, values };
}
