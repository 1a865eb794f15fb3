// A statement's text as the dialect's own lexer reads it (issue 40): words, quoted identifiers, literals,
// placeholders and punctuation, comments dropped. Not a regular expression over the text: each dialect's quoting
// and comment rules are followed character by character, so a ';' or a function name inside a literal, a quoted
// identifier or a comment is never taken for code, and code hidden from a naive reader is never missed:
//  - PostgreSQL: nested /* */ comments, dollar-quoted bodies ($tag$…$tag$), E'' strings with backslash escapes,
//    "quoted" identifiers; U&"…" / U&'…' (escapes that could spell any name) are refused;
//  - MySQL / MariaDB: '…' and "…" strings with backslash escapes, `quoted` identifiers, # comments; executable
//    comments (/*! … */, /*M! … */), which the server runs as code, are refused;
//  - SQLite: '…' strings, "…", `…` and […] identifiers.
// What the API checks read from the tokens: how many statements the text holds (statements.ts) and which
// functions it calls.
import { SqlConnectorError } from './types.js';
import type { DbType } from './types.js';

export type TokenKind = 'word' | 'ident' | 'string' | 'number' | 'param' | 'punct';
export interface Token {
  kind: TokenKind;
  /** word: lower-cased; ident: the name as quoted (unescaped); string: the literal's content; others: the text */
  text: string;
  /** offset in the statement text */
  at: number;
}

export const TOKEN_MSG = {
  unterminated: (what: string, at: number) => `SQL 第 ${at + 1} 个字符起的${what}没有结束`,
  executableComment: 'MySQL 可执行注释（/*! … */）会被当作语句执行，接口脚本中不允许使用',
  unicodeEscape: 'PostgreSQL 的 U& 转义字符串和标识符在接口脚本中不允许使用',
} as const;

const isWordStart = (c: string) => /[A-Za-z_\u0080-\uffff]/.test(c);
const isWordChar = (c: string) => /[A-Za-z0-9_$\u0080-\uffff]/.test(c);
const refuse = (msg: string): never => {
  throw new SqlConnectorError(msg, 'REFUSED');
};

/** The tokens of `sql` in the dialect's reading. Throws SqlConnectorError('REFUSED') with a Chinese reason. */
export function tokenize(sql: string, dialect: DbType): Token[] {
  const pg = dialect === 'postgresql';
  const my = dialect === 'mysql' || dialect === 'mariadb';
  const out: Token[] = [];
  const n = sql.length;
  let i = 0;
  /** the end (exclusive) of a quoted run opened at `start` by `q`; doubled quotes escape, and backslashes when `bs` */
  const quoted = (start: number, q: string, close: string, bs: boolean, what: string): number => {
    let j = start + 1;
    while (j < n) {
      if (bs && sql[j] === '\\') j += 2;
      else if (sql[j] === close && close === q && sql[j + 1] === q) j += 2;
      else if (sql[j] === close) return j + 1;
      else j++;
    }
    return refuse(TOKEN_MSG.unterminated(what, start));
  };
  const unquote = (body: string, q: string) => body.split(q + q).join(q);
  while (i < n) {
    const c = sql[i];
    const c2 = sql[i + 1] ?? '';
    if (/\s/.test(c)) {
      i++;
    } else if ((c === '-' && c2 === '-') || (my && c === '#')) {
      const j = sql.indexOf('\n', i);
      i = j < 0 ? n : j + 1;
    } else if (c === '/' && c2 === '*') {
      if (my && (sql[i + 2] === '!' || (sql[i + 2] === 'M' && sql[i + 3] === '!'))) refuse(TOKEN_MSG.executableComment);
      // PostgreSQL nests block comments; MySQL and SQLite end at the first */
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        if (pg && sql[j] === '/' && sql[j + 1] === '*') {
          depth++;
          j += 2;
        } else if (sql[j] === '*' && sql[j + 1] === '/') {
          depth--;
          j += 2;
        } else j++;
      }
      if (depth > 0) refuse(TOKEN_MSG.unterminated('注释', i));
      i = j;
    } else if (pg && (c === 'U' || c === 'u') && c2 === '&' && (sql[i + 2] === '"' || sql[i + 2] === "'")) {
      refuse(TOKEN_MSG.unicodeEscape);
    } else if (pg && (c === 'E' || c === 'e') && c2 === "'") {
      const j = quoted(i + 1, "'", "'", true, '字符串');
      out.push({ kind: 'string', text: sql.slice(i + 2, j - 1), at: i });
      i = j;
    } else if (c === "'") {
      const j = quoted(i, "'", "'", my, '字符串');
      out.push({ kind: 'string', text: unquote(sql.slice(i + 1, j - 1), "'"), at: i });
      i = j;
    } else if (c === '"') {
      // a string in MySQL's default mode, an identifier elsewhere: a name either way for the checks
      const j = quoted(i, '"', '"', my, '标识符');
      out.push({ kind: my ? 'string' : 'ident', text: unquote(sql.slice(i + 1, j - 1), '"'), at: i });
      i = j;
    } else if (c === '`' && !pg) {
      const j = quoted(i, '`', '`', false, '标识符');
      out.push({ kind: 'ident', text: unquote(sql.slice(i + 1, j - 1), '`'), at: i });
      i = j;
    } else if (c === '[' && dialect === 'sqlite') {
      const j = sql.indexOf(']', i + 1);
      if (j < 0) refuse(TOKEN_MSG.unterminated('标识符', i));
      out.push({ kind: 'ident', text: sql.slice(i + 1, j), at: i });
      i = j + 1;
    } else if (pg && c === '$' && /\d/.test(c2)) {
      let j = i + 1;
      while (j < n && /\d/.test(sql[j])) j++;
      out.push({ kind: 'param', text: sql.slice(i, j), at: i });
      i = j;
    } else if (pg && c === '$') {
      // $tag$ … $tag$ (the tag may be empty)
      const m = /^\$([A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)?\$/.exec(sql.slice(i));
      if (!m) {
        out.push({ kind: 'punct', text: c, at: i });
        i++;
        continue;
      }
      const end = sql.indexOf(m[0], i + m[0].length);
      if (end < 0) refuse(TOKEN_MSG.unterminated('$$ 字符串', i));
      out.push({ kind: 'string', text: sql.slice(i + m[0].length, end), at: i });
      i = end + m[0].length;
    } else if (isWordStart(c)) {
      let j = i + 1;
      while (j < n && isWordChar(sql[j])) j++;
      out.push({ kind: 'word', text: sql.slice(i, j).toLowerCase(), at: i });
      i = j;
    } else if (/\d/.test(c) || (c === '.' && /\d/.test(c2))) {
      let j = i + 1;
      while (j < n && /[\w.]/.test(sql[j])) j++;
      out.push({ kind: 'number', text: sql.slice(i, j), at: i });
      i = j;
    } else if (c === '?' || (c === ':' && isWordStart(c2) && sql[i - 1] !== ':') || (c === '#' && c2 === '{')) {
      let j = i + 1;
      if (c === '#') j = sql.indexOf('}', i) < 0 ? n : sql.indexOf('}', i) + 1;
      else if (c === ':') while (j < n && isWordChar(sql[j])) j++;
      out.push({ kind: 'param', text: sql.slice(i, j), at: i });
      i = j;
    } else {
      out.push({ kind: 'punct', text: c, at: i });
      i++;
    }
  }
  return out;
}

/** The statements of the text: token runs split at ';' (empty ones — a trailing ';' — dropped). */
export function statementsOf(tokens: Token[]): Token[][] {
  const out: Token[][] = [[]];
  for (const t of tokens) {
    if (t.kind === 'punct' && t.text === ';') out.push([]);
    else out[out.length - 1].push(t);
  }
  return out.filter((s) => s.length > 0);
}

/** The name (lower-cased, schema left off) of every function the tokens call: a name followed by '('. */
export function calledFunctions(tokens: Token[]): Array<{ name: string; at: number }> {
  const out: Array<{ name: string; at: number }> = [];
  tokens.forEach((t, k) => {
    const next = tokens[k + 1];
    if (!next || next.kind !== 'punct' || next.text !== '(') return;
    // a string too: MySQL reads "name" as an identifier under ANSI_QUOTES
    if (t.kind !== 'word' && t.kind !== 'ident' && t.kind !== 'string') return;
    out.push({ name: t.text.toLowerCase(), at: t.at });
  });
  return out;
}
