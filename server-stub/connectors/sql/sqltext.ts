// Reading a statement's text without running it: its words outside literals and comments (is there a LIMIT?),
// and the tables its FROM / JOIN clauses name with their aliases (SQLite's plan names a table by its alias).
// A reading, not a parser: it serves the plan's warnings, never a security decision.

/** The text with comments removed, string literals as '' and quoted identifiers unquoted (when plain). */
export function bareText(sql: string): string {
  let out = '';
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    if (c === '-' && sql[i + 1] === '-') {
      const j = sql.indexOf('\n', i);
      i = j < 0 ? n : j;
      out += ' ';
    } else if (c === '/' && sql[i + 1] === '*') {
      const j = sql.indexOf('*/', i + 2);
      i = j < 0 ? n : j + 2;
      out += ' ';
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < n) {
        if (sql[j] === '\\' && c === "'") j += 2;
        else if (sql[j] === c && sql[j + 1] === c) j += 2;
        else if (sql[j] === c) break;
        else j++;
      }
      const body = sql.slice(i + 1, j);
      out += c === "'" ? "''" : /^[A-Za-z_][\w$]*$/.test(body) ? body : `"${body.replace(/[^\w$]/g, '_')}"`;
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Whether the statement caps its rows: LIMIT, FETCH FIRST / NEXT, or TOP, anywhere outside literals and comments. */
export function hasRowLimit(sql: string): boolean {
  return /\blimit\s+(\d|\?|\$\d|:)|\bfetch\s+(first|next)\b|\bselect\s+(distinct\s+)?top\s*\(?\s*\d/i.test(bareText(sql));
}

const NOT_ALIAS = new Set(
  'where join inner left right full outer cross natural on using group order limit having union except intersect window as fetch offset for lateral straight_join'.split(' '),
);

/** Aliases → table names from the FROM / JOIN clauses (a table without alias maps to itself). */
export function tableAliases(sql: string): Record<string, string> {
  const text = bareText(sql);
  const out: Record<string, string> = {};
  const name = String.raw`([A-Za-z_][\w$]*(?:\.[A-Za-z_][\w$]*)?)(?:\s+(?:as\s+)?([A-Za-z_][\w$]*))?`;
  const head = new RegExp(String.raw`\b(?:from|join)\s+${name}`, 'gi');
  const more = new RegExp(String.raw`^\s*,\s*${name}`, 'i');
  const add = (table: string, alias?: string) => {
    const t = table.includes('.') ? table.slice(table.lastIndexOf('.') + 1) : table;
    out[t] ??= t;
    if (alias && !NOT_ALIAS.has(alias.toLowerCase())) out[alias] = t;
  };
  for (let m = head.exec(text); m; m = head.exec(text)) {
    add(m[1], m[2]);
    let rest = text.slice(head.lastIndex);
    for (let k = more.exec(rest); k; k = more.exec(rest)) {
      add(k[1], k[2]);
      rest = rest.slice(k[0].length);
    }
  }
  return out;
}

/**
 * Pairs of FROM items joined without any condition between them, as the text says: an explicit CROSS JOIN, a JOIN
 * without ON / USING (not NATURAL), or a comma list whose WHERE never compares a column of one with a column of the
 * other. Used where the plan cannot tell (SQLite); aliases as written.
 */
export function textCrossJoins(sql: string): Array<[string, string]> {
  const text = bareText(sql);
  const found: Array<[string, string]> = [];
  const id = String.raw`[A-Za-z_][\w$]*(?:\.[A-Za-z_][\w$]*)?`;
  const item = String.raw`(${id})(?:\s+(?:as\s+)?([A-Za-z_][\w$]*))?`;
  const aliasOf = (t: string, a?: string) => (a && !NOT_ALIAS.has(a.toLowerCase()) ? a : t.slice(t.lastIndexOf('.') + 1));
  // a comma list: from a x, b y [where ...]
  const list = new RegExp(String.raw`\bfrom\s+${item}((?:\s*,\s*${item})+)`, 'gi');
  for (let m = list.exec(text); m; m = list.exec(text)) {
    const names = [aliasOf(m[1], m[2])];
    const each = new RegExp(String.raw`,\s*${item}`, 'gi');
    for (let k = each.exec(m[3]); k; k = each.exec(m[3])) names.push(aliasOf(k[1], k[2]));
    const after = text.slice(list.lastIndex);
    const where = /^\s*where\b([\s\S]*?)(\bgroup\s+by\b|\border\s+by\b|\blimit\b|\bunion\b|\bhaving\b|\)|$)/i.exec(after)?.[1] ?? '';
    for (let i = 1; i < names.length; i++) {
      const linked = names.slice(0, i).some((other) => related(where, other, names[i]));
      if (!linked) found.push([names[i - 1], names[i]]);
    }
  }
  const cross = new RegExp(String.raw`${item}\s+cross\s+join\s+${item}`, 'gi');
  for (let m = cross.exec(text); m; m = cross.exec(text)) found.push([aliasOf(m[1], m[2]), aliasOf(m[3], m[4])]);
  const bare = new RegExp(String.raw`(?<!natural\s+)(?<!cross\s+)(?:inner\s+)?\bjoin\s+${item}(?!\s*(?:on|using)\b)\s*(?=$|\bwhere\b|\bjoin\b|\binner\b|\bleft\b|\border\b|\bgroup\b|\blimit\b|,|\))`, 'gi');
  for (let m = bare.exec(text); m; m = bare.exec(text)) found.push(['…', aliasOf(m[1], m[2])]);
  return found;
}

/** Whether a condition text compares a column of `a` with a column of `b` (a.x = b.y, either way round, any operator). */
function related(cond: string, a: string, b: string): boolean {
  const esc = (s: string) => s.replace(/[$]/g, '\\$');
  const col = (t: string) => String.raw`\b${esc(t)}\s*\.\s*[\w$]+`;
  const op = String.raw`\s*(?:=|<>|!=|<=|>=|<|>|\bin\b|\blike\b)\s*`;
  return new RegExp(`${col(a)}${op}${col(b)}|${col(b)}${op}${col(a)}`, 'i').test(cond);
}
