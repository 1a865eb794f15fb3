// Browser and server answer alike (issue 26): the same fields and the same values, once through the Formily
// validators the browser's form fields run (widgets/formField/rules.ts, in a real @formily/core form) and once
// through the server's submission check (server-stub/modules/datav/fields.ts), and for the CRUD dialogs the
// Formily schema the browser renders (runtime/crud/dialog-schema.ts) against the server's body check
// (server-stub/core/declarations.ts). Every message must be the same, and a value one side takes the other must
// take. It lives here because only the test folders may import both sides; it needs no browser.
import path from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import { createForm } from '@formily/core';
import { Schema } from '@formily/json-schema';
import { loadSchemas } from '../server-stub/core/schemas';
import { BizError } from '../server-stub/core/envelope';
import { formValidator } from '../server-stub/modules/datav/fields';
import { checkBody } from '../server-stub/core/declarations';
import { formSchemaFor } from '../runtime/crud/dialog-schema';
import type { DialogDecl } from '../runtime/crud/types';
import { formilyRules, isFieldRequired } from '../widgets/formField/rules';
import { PATTERN_PRESETS, CUSTOM_PATTERN } from '../common/fields';

const schemas = loadSchemas(path.resolve(import.meta.dirname, '..'));
const env = { messages: schemas.messages, dicts: schemas.dicts };
const IMG = '/files/form/0f8fad5b-d9cb-469f-a165-70867728950e.png';
const IMG2 = IMG.replace('0f8', '1f8');
const OPTIONS = [
  { label: '选项一', value: '1' },
  { label: '选项二', value: '2' },
];

/** Field props per kind: plain, required, and the kind's rules at work. */
const PROPS: Record<string, Array<Record<string, unknown>>> = {
  formInput: [
    { label: '姓名', maxLength: 100 },
    { label: '姓名', required: true, minLength: 2, maxLength: 4, lengthMessage: '' },
    { label: '手机', required: true, requiredMessage: '手机必填', patternPreset: PATTERN_PRESETS.mobile.source, patternMessage: '请输入正确的手机号码' },
    { label: '邮箱', patternPreset: PATTERN_PRESETS.email.source },
    { label: '身份证号', patternPreset: PATTERN_PRESETS.idcard.source },
    { label: '编码', patternPreset: CUSTOM_PATTERN, customPattern: ' ^[A-Z]{3}$ ' },
    { label: '  ', required: true, minLength: 3 },
  ],
  formTextarea: [{ label: '意见', minLength: 5, maxLength: 500, lengthMessage: '五到五百字' }, { label: '意见', required: true }],
  formNumber: [
    { label: '年龄', minimum: 0, maximum: 150, precision: 0 },
    { label: '年龄', required: true, minimum: 1, maximum: null, precision: 2, rangeMessage: '' },
    { label: '年龄', minimum: null, maximum: 9, rangeMessage: '太大了' },
  ],
  formSelect: [{ label: '城市', options: OPTIONS }, { label: '环境', dict: 'ENV_TYPE', required: true }],
  formRadio: [{ label: '同意', dict: 'YES_OR_NO' }, { label: '城市', options: OPTIONS, required: true, requiredMessage: '请选一个' }],
  formCheckbox: [{ label: '标签', options: OPTIONS, minItems: 2 }, { label: '标签', options: OPTIONS, required: true, maxItems: 1 }],
  formSwitch: [{ label: '订阅' }, { label: '订阅', required: true }],
  formDate: [{ label: '日期' }, { label: '日期', required: true }],
  formDateRange: [{ label: '行程' }, { label: '行程', required: true }],
  formImage: [{ label: '照片', maxCount: 1 }, { label: '照片', maxCount: 2, required: true }],
};

/** Values of every shape, typical and edge; each is tried on every field. */
const VALUES: unknown[] = [
  undefined, null, '', ' ', '张', '张三', '张三李四王', 'ABC', 'abc', '13800138000', '12800138000', 'a@b.cn', 'a@b', '11010519491231002X',
  '1', '2', 'prod', 'dev', '9', 0, 1, 2, 1.5, 1.255, 151, -1, 1e-7, Number.NaN, true, false, 'true',
  '2024-02-29', '2023-02-29', '2024-1-01', [], ['1'], ['1', '2'], ['1', '1'], ['1', '9'], [''],
  ['2024-01-01', '2024-01-03'], ['2024-01-03', '2024-01-01'], ['2024-01-01', ''], [null, '2024-01-01'], [null, null], ['', ''], ['2024-01-01'],
  [IMG], [IMG, IMG2], [IMG, IMG], ['https://evil.example/a.png'], IMG, { a: 1 },
];

/** What the browser's form says about a value: the field's first error, or null. */
async function browserSays(kind: string, props: Record<string, unknown>, value: unknown, title: string): Promise<string | null> {
  const form = createForm({ validateFirst: true });
  const field = form.createField({ name: 'f', initialValue: value, validator: formilyRules(kind, props, title) as never });
  await field.validate().catch(() => undefined);
  return (field.selfErrors[0] as string | undefined) ?? null;
}

/** What the server says about the same value submitted: its refusal, or null. */
function serverSays(kind: string, props: Record<string, unknown>, value: unknown, title: string): string | null {
  try {
    formValidator([{ widgetName: kind, widgetTitle: title, viewProps: { ...props, field: 'f' } }], env).validate(value === undefined ? {} : { f: value });
    return null;
  } catch (err) {
    if (err instanceof BizError) return err.message;
    throw err;
  }
}

describe('designed forms: the browser’s Formily rules and the server’s submission check agree', () => {
  for (const [kind, variants] of Object.entries(PROPS)) {
    it(`${kind}: every value, every variant`, async () => {
      const title = (schemas.widgets[kind] as { catalogue: { widgetTitle: string } }).catalogue.widgetTitle;
      let refused = 0;
      for (const props of variants) {
        for (const value of VALUES) {
          const server = serverSays(kind, props, value, title);
          expect(await browserSays(kind, props, value, title), `${kind} ${JSON.stringify(props)} ← ${String(JSON.stringify(value)).slice(0, 40)}`).toBe(server);
          if (server) refused++;
        }
        // the asterisk shows exactly when the server refuses an empty value as missing
        expect(isFieldRequired(kind, props), `${kind} ${JSON.stringify(props)} asterisk`).toBe(serverSays(kind, props, undefined, title) !== null);
      }
      // the table means something: each kind refuses some values and takes others
      expect(refused).toBeGreaterThan(0);
      expect(refused).toBeLessThan(variants.length * VALUES.length);
    });
  }
});

/* ------------------------------------------------------------------ declared dialogs (CRUD pages) */

const root = path.resolve(import.meta.dirname, '..');
const pages = readdirSync(path.join(root, 'schemas/pages'))
  .filter((f) => f.endsWith('.page.json'))
  .map((f) => JSON.parse(readFileSync(path.join(root, 'schemas/pages', f), 'utf8')))
  .filter((p) => p.dialog?.schema?.properties);
/** Every kind of rule a declaration may state, in one page an admin could write. */
const EVERY_RULE = {
  id: 'everyRule',
  dialog: {
    schema: {
      type: 'object',
      required: ['listed'],
      properties: {
        listed: { type: 'string', title: '列出必填' },
        plain: { type: 'string', title: '普通', required: true },
        blank: { type: 'string', title: '名称', maxLength: 5, 'x-validator': [{ required: true, whitespace: true, message: '请输入名称' }] },
        lengths: { type: 'string', title: '长度', minLength: 2, 'x-validator': [{ max: 4, message: '最多四个字' }] },
        code: { type: 'string', title: '编码', pattern: '^[A-Z]+$', 'x-validator': [{ pattern: '^.{0,3}$', message: '最多三位' }] },
        mail: { type: 'string', title: '邮箱', 'x-validator': 'email' },
        phone: { type: 'string', title: '手机', 'x-validator': [{ format: 'phone', message: '请输入正确的手机号码' }] },
        site: { type: 'string', title: '网址', format: 'url' },
        level: { type: 'string', title: '级别', enum: ['a', { label: 'B', value: 'b' }] },
        port: { type: 'integer', title: '端口', 'x-component-props': { min: 1, max: 65535 } },
        ratio: { type: 'number', title: '比例', minimum: 0, 'x-validator': [{ max: 1, message: '不能超过 1' }] },
        on: { type: 'boolean', title: '启用' },
      },
    },
  },
};

const DIALOG_VALUES: unknown[] = [
  undefined, null, '', '   ', 'a', 'b', 'ABC', 'ABCD', 'abc', '一二三四五六', 'x'.repeat(600), 'a@b.cn', 'a@b', '13912345678', '01012345678',
  'https://a.cn/x', 'a.cn', '10.0.0.5', '[::1]', 'a b', 'my-bucket', '3306', 0, 1, 1.5, -1, 65535, 65536, true, false,
];

/** The browser: the dialog's Formily field, built from the rendered schema as SchemaField builds it. */
async function dialogSays(dialog: DialogDecl, name: string, value: unknown): Promise<string | null> {
  // every field shown and editable (a hidden or locked field is not validated: that is display, not a rule)
  const { ['x-reactions']: _reactions, ...field } = formSchemaFor({ ...dialog, hiddenInNew: [], lockedInEdit: [] }, 'new').properties[name];
  const schema = new Schema({ type: 'object', properties: { [name]: field } } as never);
  const form = createForm();
  const props = schema.properties![name].toFieldProps();
  const f = form.createField({ ...props, name, initialValue: value } as never);
  await f.validate().catch(() => undefined);
  return (f.selfErrors[0] as string | undefined) ?? null;
}

/** The server: the body check of a page holding this one field (dictionaries are the server's own check). */
function bodySays(dialog: DialogDecl, name: string, value: unknown): string | null {
  const required = Array.isArray(dialog.schema.required) && (dialog.schema.required as string[]).includes(name) ? [name] : [];
  const one = { dialog: { schema: { type: 'object', required, properties: { [name]: dialog.schema.properties[name] } } } };
  try {
    checkBody(one, value === undefined ? {} : { [name]: value });
    return null;
  } catch (err) {
    if (err instanceof BizError) return err.message;
    throw err;
  }
}

describe('declared dialogs: the browser’s rendered Formily rules and the server’s body check agree', () => {
  for (const page of [...pages, EVERY_RULE]) {
    it(`${page.id}: every field, every value`, async () => {
      const dialog = page.dialog as DialogDecl;
      let refused = 0;
      let compared = 0;
      for (const name of Object.keys(dialog.schema.properties)) {
        for (const value of DIALOG_VALUES) {
          const server = bodySays(dialog, name, value);
          expect(await dialogSays(dialog, name, value), `${page.id}.${name} ← ${String(JSON.stringify(value)).slice(0, 40)}`).toBe(server);
          if (server) refused++;
          compared++;
        }
      }
      expect(refused).toBeGreaterThan(0);
      expect(refused).toBeLessThan(compared);
    });
  }
});
