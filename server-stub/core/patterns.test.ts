// Declared patterns: a catastrophic one is refused at save time with its JSON pointer and never runs;
// every pattern built into schemas/ passes the same check.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverForSuite } from '../testing/server.js';
import { checkBody, FORMATS } from './declarations.js';
import { judgePatterns, MAX_NEW_PATTERNS, patternFault } from './patterns.js';

const schemasDir = path.resolve(import.meta.dirname, '../../schemas');
function patternsIn(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return patternsIn(p);
    if (!name.endsWith('.json')) return [];
    const found: string[] = [];
    JSON.parse(readFileSync(p, 'utf8'), (k, v) => {
      if (k === 'pattern' && typeof v === 'string') found.push(v);
      return v;
    });
    return found;
  });
}

describe('declared patterns', () => {
  it('refuses patterns that backtrack catastrophically and keeps ordinary ones', () => {
    for (const bad of ['^(a+)+$', '(a|a)*b', '^(\\w+\\s?)*$', '^(([a-z])+.)+[A-Z]([a-z])+$']) expect(patternFault(bad), bad).toMatch(/灾难性回溯/);
    for (const good of ['^1[3-9]\\d{9}$', '^[^\\s@]+@[^\\s@.]+(\\.[^\\s@.]+)+$', '^(\\d{15}|\\d{17}[\\dXx])$']) expect(patternFault(good), good).toBeNull();
    expect(patternFault('([')).toMatch(/不是合法/);
  });

  it('keeps the server\'s own format checks linear', () => {
    for (const [name, re] of Object.entries(FORMATS)) expect(patternFault(re.source), name).toBeNull();
  });

  it('passes every pattern built into schemas/', () => {
    const all = patternsIn(schemasDir);
    expect(all.length).toBeGreaterThan(3);
    for (const p of all) expect(patternFault(p), p).toBeNull();
  });

  it('judges patterns sent with a request without stopping the event loop, then answers from the cache', async () => {
    // distinct, hard-to-decide patterns (the security review's: about 2 s each, synchronously)
    const hard = [1, 2, 3].map((n) => `^([a-z0-9]+\\.)*[a-z]{2,}(x|y|z){1,40}(\\d{1,30}[a-f]{1,30}){1,${n + 7}}$`);
    let ticks = 0;
    let longest = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const t = performance.now();
      longest = Math.max(longest, t - last);
      last = t;
      ticks++;
    }, 20);
    await judgePatterns(hard);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
    expect(longest).toBeLessThan(500); // a blocked loop would show a gap of seconds
    const t = performance.now();
    for (const p of hard) patternFault(p);
    expect(performance.now() - t).toBeLessThan(50);
  });

  it('answers the verdicts it judged (no later blocking look-up), and refuses a request with too many new patterns', async () => {
    const some = ['^a{1,3}$', '^(a+)+$'];
    const got = await judgePatterns(some);
    expect(got.get('^a{1,3}$')).toBeNull();
    expect(got.get('^(a+)+$')).toMatch(/灾难性回溯/);
    const flood = Array.from({ length: MAX_NEW_PATTERNS + 1 }, (_, i) => `^flood${i}_[a-z]{1,${(i % 9) + 1}}$`);
    await expect(judgePatterns(flood)).rejects.toThrow('一次提交的正则表达式过多');
  });

  it('never runs an unsafe declared pattern on a value (refused fast, no event-loop block)', () => {
    const page = { dialog: { schema: { type: 'object', properties: { code: { type: 'string', title: '编码', pattern: '^(a+)+$' } } } } };
    const t = performance.now();
    expect(() => checkBody(page, { code: `${'a'.repeat(30)}!` })).toThrow(/灾难性回溯/);
    expect(performance.now() - t).toBeLessThan(500);
  });
});

describe('low-code page save', () => {
  const s = serverForSuite();

  it('refuses a ReDoS pattern naming where it stands (by the field path, never a JSON pointer), and the request answers at once', async () => {
    const declaration = {
      id: 'redos',
      title: '回溯',
      columns: [{ title: '编码', field: 'code' }],
      dialog: { schema: { type: 'object', properties: { code: { type: 'string', title: '编码', 'x-validator': [{ pattern: '^(a+)+$', message: '格式不对' }] } } } },
    };
    const t = performance.now();
    const r = await s.request('POST', '/api/lowcode/page/save', { pageKey: 'redos', title: '回溯', declaration });
    expect(r.body.status).toBe(1);
    expect(r.body.msg).toContain('字段「dialog.schema.properties.code.x-validator[0].pattern」');
    expect(r.body.msg).toContain('灾难性回溯');
    expect(performance.now() - t).toBeLessThan(2000);
  });

  it('refuses unsafe patterns and script wherever they stand: component props, nested schemas, expressions', async () => {
    const field = (extra: object) => ({ id: 'p', title: 'p', columns: [{ title: '编码', field: 'code' }], dialog: { schema: { type: 'object', properties: { code: { type: 'string', title: '编码', ...extra } } } } });
    const cases: Array<[object, string]> = [
      [field({ 'x-component': 'Input', 'x-component-props': { pattern: '^(a+)+$' } }), '字段「dialog.schema.properties.code.x-component-props.pattern」'],
      [{ ...field({}), dialog: { schema: { type: 'object', properties: { grp: { properties: { code: { type: 'string', pattern: '^(a+)+$' } } } } } } }, '字段「dialog.schema.properties.grp.properties.code.pattern」'],
      [field({ 'x-validator': [{ validator: '{{(v)=>/^(a+)+$/.test(v)}}' }] }), '字段「dialog.schema.properties.code.x-validator[0].validator」'],
      [field({ 'x-reactions': { fulfill: { run: "{{ fetch('/api/uams/user/search') }}" } } }), '字段「dialog.schema.properties.code.x-reactions.fulfill.run」'],
      [field({ title: "{{$self.constructor.constructor('alert(1)')()}}" }), '字段「dialog.schema.properties.code.title」'],
    ];
    for (const [declaration, where] of cases) {
      const r = await s.request('POST', '/api/lowcode/page/save', { pageKey: 'unsafe', title: '不安全', declaration: { ...declaration, id: 'unsafe' } });
      expect(r.body.status, where).toBe(1);
      expect(r.body.msg).toContain(where);
    }
    // field logic within the expression language is kept
    const fine = field({ 'x-reactions': { dependencies: ['code'], fulfill: { state: { visible: "{{$deps[0] !== 'x'}}" } } } });
    expect((await s.request('POST', '/api/lowcode/page/save', { pageKey: 'fine', title: '正常', declaration: { ...fine, id: 'fine' } })).body.status).toBe(0);
  });
});
