import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BizError } from './envelope.js';
import { bodySchemaOf, checkBody, fieldRulesOf, likePattern, searchFieldsOf, sortableFieldsOf } from './declarations.js';

const root = join(import.meta.dirname, '../..');
const page = JSON.parse(readFileSync(join(root, 'schemas/pages/datasource.page.json'), 'utf8'));
const dicts = { DB_TYPE: JSON.parse(readFileSync(join(root, 'schemas/dicts/DB_TYPE.json'), 'utf8')) };
const good = { dsName: 'a', dbType: 'mysql', hostName: 'h', port: 3306, dbName: 'd', username: 'u', pwd: 'p' };

const msgOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(BizError);
    return (e as Error).message;
  }
  return null;
};

describe('declarations on the server', () => {
  it('reads field rules, search fields and sortable columns from a page', () => {
    const rules = fieldRulesOf(page);
    expect(rules.find((r) => r.field === 'dsName')).toMatchObject({ required: true, requiredMessage: '请输入数据源名称', maxLength: { limit: 50 } });
    expect(rules.find((r) => r.field === 'port')).toMatchObject({ type: 'integer', minimum: 1, maximum: 65535 });
    expect(searchFieldsOf(page)).toEqual(['dsName']);
    expect(sortableFieldsOf(page)).toEqual(['dsName']);
    expect(bodySchemaOf(page)).toMatchObject({ type: 'object', properties: { port: { type: ['integer', 'null'] } } });
  });

  it('checks bodies with the declared messages, applies defaults, drops undeclared keys', () => {
    expect(checkBody(page, { ...good, extra: 1 }, { dicts, applyDefaults: true })).toEqual({ ...good, maxWaitTime: 120, maxActive: 20, queryTimeout: 300 });
    expect(msgOf(() => checkBody(page, { ...good, dsName: '' }))).toBe('请输入数据源名称');
    expect(msgOf(() => checkBody(page, { ...good, pwd: undefined }))).toBe('请输入密码');
    expect(checkBody(page, { ...good, pwd: undefined }, { skipRequired: ['pwd'] })).not.toHaveProperty('pwd');
    expect(msgOf(() => checkBody(page, { ...good, dsName: '长'.repeat(51) }))).toBe('数据源名称长度不能超过50个字符');
    expect(msgOf(() => checkBody(page, { ...good, dbType: 'db2' }, { dicts }))).toContain('数据库类型取值不合法');
    expect(msgOf(() => checkBody(page, { ...good, port: '3306' }))).toBe('端口类型错误，应为整数');
    expect(msgOf(() => checkBody(page, [good]))).toBe('请求体必须是对象');
  });

  it('honours patterns, formats and string-form validators', () => {
    const p = {
      dialog: {
        schema: {
          type: 'object',
          properties: {
            phone: { type: 'string', title: '手机号', 'x-validator': [{ pattern: '^1[3-9]\\d{9}$', message: '请输入正确的手机号码' }] },
            mail: { type: 'string', title: '邮箱', 'x-validator': 'email' },
            n: { type: 'number', title: '数', required: true },
          },
        },
      },
    };
    expect(msgOf(() => checkBody(p, { n: 1, phone: '123' }))).toBe('请输入正确的手机号码');
    expect(msgOf(() => checkBody(p, { n: 1, mail: 'x@' }))).toBe('邮箱格式不正确');
    expect(msgOf(() => checkBody(p, {}))).toBe('请输入数');
    expect(checkBody(p, { n: 1.5, phone: '13912345678', mail: 'a@b.cn' })).toEqual({ n: 1.5, phone: '13912345678', mail: 'a@b.cn' });
  });

  it('escapes LIKE wildcards', () => {
    expect(likePattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });
});
