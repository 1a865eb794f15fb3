// The expression language of declared Formily expressions: what declarations need passes, script does not.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expressionFault, expressionFaultsIn } from './expressions.js';

describe('declared expressions', () => {
  it('allows field logic', () => {
    for (const e of ["$deps[0] !== 'sqlite'", "$values.type === 'API' && !$self.value", '$self.value ? 1 : 0', "($deps[0] || '') === 'x'", '$deps[1] > 10']) expect(expressionFault(e), e).toBeNull();
  });

  it('refuses calls, regular expressions, other names, prototypes and assignments', () => {
    for (const e of [
      "/^(a+)+$/.test('aaaa!')",
      'alert(1)',
      "$self.value.constructor.constructor('x')()",
      "$deps['constructor']",
      '(() => 1)()',
      'fetch`x`',
      'window.location',
      '$self.value = 1',
      '$deps[0]; alert(1)',
      "$self['__proto__']",
      '$deps[$deps]',
      'new Date()',
      '$self.value.toString()',
    ])
      expect(expressionFault(e), e).not.toBeNull();
    expect(expressionFaultsIn("{{(v)=>/^(a+)+$/.test(v)}}")).not.toEqual([]);
    expect(expressionFaultsIn('plain text')).toEqual([]);
  });

  it('covers every expression the built-in page declarations use', () => {
    const dir = path.resolve(import.meta.dirname, '../../schemas/pages');
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
      const decl = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
      expect(expressionFaultsIn(JSON.stringify(decl.dialog ?? {})), f).toEqual([]);
    }
  });
});
