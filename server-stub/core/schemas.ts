// Loads every declaration in schemas/, and each widget kind's in widgets/<widgetName>/<widgetName>.widget.json
// (a kind is one folder; its declaration is data, read here as a JSON file, never as browser code), and checks
// each against the meta-schema its `$schema` names. A bad file refuses the start with its path and the JSON
// pointer of the fault (DESIGN §5).
import { patternsIn, pinPatternsNow } from './patterns.js';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { describeAjvError } from '../../common/ajv-messages.js';

export interface LoadedSchemas {
  /** Page declarations by id (schemas/pages). */
  pages: Record<string, any>;
  /** Settings page declarations by id (schemas/settings). */
  settings: Record<string, any>;
  /** Dictionaries by type (schemas/dicts). */
  dicts: Record<string, any>;
  /** Menu declarations by moduleType (schemas/menus/*.json except roles). */
  menus: Record<string, any>;
  roles: any;
  messages: Record<string, string>;
  /** Widget declarations by widgetName (widgets/<widgetName>/<widgetName>.widget.json). */
  widgets: Record<string, any>;
  /**
   * Ready screens a new screen may start from, by name (schemas/templates/<name>.screen.json, in the designer's
   * export format, meta-schema screen-export.schema.json; the screen module checks their widgets at start).
   */
  screenTemplates: Record<string, any>;
  /** Compiled validators of the meta-schemas, by file name (e.g. 'page.schema.json'). */
  validators: Record<string, ValidateFunction>;
  ajv: Ajv;
}

export class SchemaFileError extends Error {
  constructor(
    readonly file: string,
    readonly pointer: string,
    detail: string,
  ) {
    super(`${file}: ${pointer || '/'} ${detail}`);
    this.name = 'SchemaFileError';
  }
}

export function newAjv(): Ajv {
  // verbose: errors carry their schema, so a message can say what a pattern expects (common/ajv-messages.ts)
  const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true, verbose: true });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}

function listJson(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'generated') out.push(...listJson(full));
    } else if (name.endsWith('.json')) out.push(full);
  }
  return out;
}

function parse(file: string, rel: string): any {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new SchemaFileError(rel, '', `不是合法的 JSON：${(e as Error).message}`);
  }
}

/** Each widget kind's declaration: rootDir/widgets/<folder>/<folder>.widget.json (other folders are no kinds). */
function listWidgetDeclarations(rootDir: string): string[] {
  const dir = path.join(rootDir, 'widgets');
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const folder of readdirSync(dir).sort()) {
    const full = path.join(dir, folder);
    if (!statSync(full).isDirectory()) continue;
    for (const name of readdirSync(full).sort()) if (name.endsWith('.widget.json')) out.push(path.join(full, name));
  }
  return out;
}

const WIDGET_META = 'widget.schema.json';
const TEMPLATE_META = 'screen-export.schema.json';
/** schemas/templates/<name>.screen.json: a lower-case name, the template's key in calls */
const TEMPLATE_FILE = /^schemas[\\/]templates[\\/]([a-z][a-z0-9-]{0,39})\.screen\.json$/;

/** Reads and checks every declaration under rootDir/schemas and rootDir/widgets. Throws SchemaFileError on the first bad file. */
export function loadSchemas(rootDir: string): LoadedSchemas {
  const base = path.join(rootDir, 'schemas');
  const ajv = newAjv();
  const validators: Record<string, ValidateFunction> = {};
  const metaDir = path.join(base, 'meta');
  // Meta-schemas first: each must itself be a valid strict schema.
  for (const file of listJson(metaDir)) {
    const rel = path.relative(rootDir, file);
    const schema = parse(file, rel);
    try {
      validators[path.basename(file)] = ajv.compile(schema);
    } catch (e) {
      throw new SchemaFileError(rel, '', `元模式无效：${(e as Error).message}`);
    }
  }
  const out: LoadedSchemas = { pages: {}, settings: {}, dicts: {}, menus: {}, roles: null, messages: {}, widgets: {}, screenTemplates: {}, validators, ajv };
  const widgetFiles = listWidgetDeclarations(rootDir);
  for (const file of [...listJson(base), ...widgetFiles]) {
    if (file.startsWith(metaDir + path.sep)) continue;
    const rel = path.relative(rootDir, file);
    const doc = parse(file, rel);
    if (typeof doc.$schema !== 'string') throw new SchemaFileError(rel, '/$schema', '缺少 $schema（应指向 schemas/meta/ 下的元模式）');
    const metaFile = path.resolve(path.dirname(file), doc.$schema);
    const validate = validators[path.basename(metaFile)];
    if (!validate || path.dirname(metaFile) !== metaDir) throw new SchemaFileError(rel, '/$schema', `找不到元模式 ${doc.$schema}`);
    if (!validate(doc)) {
      const first = validate.errors![0];
      throw new SchemaFileError(rel, first.instancePath, describeAjvError(first));
    }
    const meta = path.basename(metaFile);
    if (widgetFiles.includes(file) !== (meta === WIDGET_META)) {
      // one home per kind: a widget declaration only in its folder, and nothing else there
      throw new SchemaFileError(rel, '/$schema', meta === WIDGET_META ? '部件声明应放在 widgets/<widgetName>/<widgetName>.widget.json' : `widgets/ 下的 .widget.json 应以 ${WIDGET_META} 为元模式`);
    }
    if (meta === WIDGET_META) {
      const name = (doc as { widgetName: string }).widgetName; // required by the meta-schema
      const expected = path.join('widgets', name, `${name}.widget.json`);
      if (rel !== expected) throw new SchemaFileError(rel, '/widgetName', `部件名「${name}」应与文件夹和文件名一致（${expected}）`);
    }
    file_into(out, meta, doc, rel);
  }
  // the built-in pages' patterns are judged now, before anything is served, and never judged again
  pinPatternsNow(Object.values(out.pages).flatMap((page) => patternsIn(page)));
  return out;
}

function file_into(out: LoadedSchemas, meta: string, doc: any, rel: string) {
  const dup = (kind: string, key: string) => {
    throw new SchemaFileError(rel, '', `${kind} ${key} 重复声明`);
  };
  switch (meta) {
    case 'page.schema.json':
      if (rel.includes(`${path.sep}examples${path.sep}`)) return; // examples are data for tests and docs, not built-in pages
      if (out.pages[doc.id]) dup('页面', doc.id);
      out.pages[doc.id] = doc;
      break;
    case 'settings.schema.json':
      if (out.settings[doc.id]) dup('设置页', doc.id);
      out.settings[doc.id] = doc;
      break;
    case 'dict.schema.json':
      if (out.dicts[doc.type]) dup('字典', doc.type);
      out.dicts[doc.type] = doc;
      break;
    case 'menu.schema.json':
      out.menus[doc.moduleType] = doc;
      break;
    case 'roles.schema.json':
      out.roles = doc;
      break;
    case 'messages.schema.json':
      Object.assign(out.messages, doc.messages);
      break;
    case WIDGET_META:
      out.widgets[doc.widgetName] = doc;
      break;
    case TEMPLATE_META: {
      const m = TEMPLATE_FILE.exec(rel);
      if (!m) throw new SchemaFileError(rel, '/$schema', '大屏模板应放在 schemas/templates/<名称>.screen.json（名称：小写字母开头，小写字母、数字、短横线）');
      if (doc.kind !== undefined && doc.kind !== 'screen') throw new SchemaFileError(rel, '/kind', '大屏模板的 kind 只能是 screen');
      out.screenTemplates[m[1]] = doc;
      break;
    }
  }
}
