// Formily compiles every `{{ … }}` in a field schema with `new Function` in the browser of whoever opens
// the page. A declaration authored in the page manager is therefore limited to a small expression
// language — enough for what declarations do (show a field by another field's value) and nothing that
// calls a function, builds a regular expression, assigns or reaches a prototype:
//   $deps[0] !== 'sqlite'      $values.type === 'API' && !$self.value      $self.value ? 1 : 0
// Anything else is refused at save with its JSON pointer.

const TOKEN = /\s+|\$?[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|'[^'\\\n]*'|"[^"\\\n]*"|===|!==|==|!=|&&|\|\||<=|>=|[!<>?:+\-*%().[\]]/y;
const ROOTS = new Set(['$deps', '$self', '$values', '$form', '$record', '$query', 'true', 'false', 'null', 'undefined']);
const FORBIDDEN_MEMBERS = new Set(['constructor', '__proto__', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);
const EXPRESSION = /\{\{([\s\S]*?)\}\}/g;
const MAX_EXPRESSION = 300;

/** Why this `{{ … }}` body may not run, or null when it is within the expression language. */
export function expressionFault(body: string): string | null {
  if (body.length > MAX_EXPRESSION) return `表达式过长（最多 ${MAX_EXPRESSION} 个字符）`;
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < body.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(body);
    if (!m || m.index !== at) return `表达式含有不允许的字符：${body.slice(at, at + 10)}`;
    if (!/^\s+$/.test(m[0])) tokens.push(m[0]);
  }
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const prev = tokens[i - 1];
    if (/^\$?[A-Za-z_]/.test(t)) {
      if (prev === '.') {
        if (FORBIDDEN_MEMBERS.has(t)) return `表达式不能访问 ${t}`;
      } else if (!ROOTS.has(t)) return `表达式只能引用 $deps、$self、$values、$form、$record，不能引用 ${t}`;
    }
    // a call: "(" right after a name, a member, a closing bracket or parenthesis
    if (t === '(' && prev !== undefined && /^(\$?[A-Za-z_][A-Za-z0-9_]*|\)|\])$/.test(prev)) return '表达式不能调用函数';
    if (t === '[' && !/^\d+$|^'[^']*'$|^"[^"]*"$/.test(tokens[i + 1] ?? '')) return '表达式的下标只能是数字或字符串';
    if (t === '[' && /^['"]/.test(tokens[i + 1] ?? '') && FORBIDDEN_MEMBERS.has((tokens[i + 1] ?? '').slice(1, -1))) return `表达式不能访问 ${tokens[i + 1]}`;
  }
  return null;
}

/** Every expression in a string, with its fault; [] when all are allowed. */
export function expressionFaultsIn(text: string): string[] {
  const faults: string[] = [];
  for (const m of text.matchAll(EXPRESSION)) {
    const why = expressionFault(m[1]);
    if (why) faults.push(why);
  }
  if (text.includes('{{') && !/\}\}/.test(text)) faults.push('表达式缺少结尾的 }}');
  return faults;
}
