import Ajv from 'ajv';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import textAlignDict from '../schemas/dicts/PROPS_TEXT_ALIGN.json';
import { hasIcon } from './icons';
import { createWidget, widgetCatalogue, widgetCatalogueTree, widgetNames, widgetRegistry } from './registry';

const root = join(__dirname, '..', 'schemas');
const readJson = (p: string) => JSON.parse(readFileSync(p, 'utf8'));
/** The kind folders: widgets/<kind>/ holding <kind>.widget.json. */
const kindFolders = readdirSync(__dirname).filter((k) => existsSync(join(__dirname, k, `${k}.widget.json`)));
const declarationFile = (kind: string) => join(__dirname, kind, `${kind}.widget.json`);

describe('widget declarations', () => {
  const ajv = new Ajv({ strict: true, allErrors: true });
  for (const f of readdirSync(join(root, 'meta'))) ajv.addSchema(readJson(join(root, 'meta', f)), f);

  const files = [...kindFolders.map(declarationFile), ...readdirSync(join(root, 'widgets')).map((f) => join(root, 'widgets', f))];
  for (const file of files) {
    it(`${relative(join(__dirname, '..'), file)} passes its meta-schema and its schemas compile under ajv strict`, () => {
      const decl = readJson(file);
      const meta = String(decl.$schema).replace(/^(\.\.\/)+(schemas\/)?meta\//, '');
      expect(ajv.validate(meta, decl), ajv.errorsText()).toBe(true);
      const inner = new Ajv({ strict: true });
      for (const key of ['viewProps', 'datasourceProps', 'schema']) if (decl[key]) expect(() => inner.compile(decl[key])).not.toThrow();
      if (file.endsWith('.widget.json')) expect(relative(__dirname, file)).toBe(join(decl.widgetName, `${decl.widgetName}.widget.json`));
    });
  }
});

describe('kind folders', () => {
  it('every folder with a declaration is a kind of the registry, with its component and its story beside it', () => {
    expect(kindFolders.length).toBeGreaterThanOrEqual(17);
    expect(Object.keys(widgetRegistry).sort()).toEqual([...kindFolders].sort());
    for (const kind of kindFolders) {
      expect(existsSync(join(__dirname, kind, 'index.ts')), `widgets/${kind}/index.ts`).toBe(true);
      expect(existsSync(join(__dirname, kind, `${kind}.stories.tsx`)), `widgets/${kind}/${kind}.stories.tsx`).toBe(true);
      expect(['function', 'object'], kind).toContain(typeof widgetRegistry[kind].component);
    }
  });

  it('offers every kind in the catalogue of each designer it declares', () => {
    for (const kind of Object.values(widgetRegistry)) {
      for (const designer of ['screen', 'form'] as const) {
        const offered = widgetCatalogueTree(designer).some((f) => f.children.some((c) => c.widgetName === kind.widgetName));
        expect(offered, `${kind.widgetName} in ${designer}`).toBe(kind.catalogue.designers.includes(designer));
      }
    }
  });
});

describe('widget meta-schema rejects', () => {
  const ajv = new Ajv({ strict: true, allErrors: true });
  for (const f of readdirSync(join(root, 'meta'))) ajv.addSchema(readJson(join(root, 'meta', f)), f);
  const good = () => readJson(declarationFile('barChart'));

  it('a view property without a title', () => {
    const d = good();
    d.viewProps.properties.barGap = { type: 'integer' };
    expect(ajv.validate('widget.schema.json', d)).toBe(false);
  });

  it('view props without the layout properties', () => {
    const d = good();
    delete d.viewProps.properties.top;
    expect(ajv.validate('widget.schema.json', d)).toBe(false);
  });

  it('an unknown top-level key', () => {
    expect(ajv.validate('widget.schema.json', { ...good(), viewHints: {} })).toBe(false);
  });
});

/** The kinds the product ships, in catalogue order. A new kind is a new folder; these keep their places. */
const SHIPPED = [
  'singleLineTitle', 'carousel', 'borderBox', 'activeRing', 'scrollTable', 'barChart',
  'formInput', 'formTextarea', 'formNumber', 'formSelect', 'formRadio', 'formCheckbox', 'formSwitch', 'formDate', 'formDateRange', 'formImage', 'formSubmit',
];
const shipped = (tree: ReturnType<typeof widgetCatalogueTree>) =>
  tree.map((f) => ({ ...f, children: f.children.filter((c) => SHIPPED.includes(c.widgetName!)) })).filter((f) => f.children.length > 0);

describe('registry', () => {
  it('holds the six display kinds and the eleven form controls in catalogue order', () => {
    expect(widgetNames.filter((n) => SHIPPED.includes(n))).toEqual(SHIPPED);
    // each kind's folder holds its icon (icon.ts), the one its declaration names
    for (const k of Object.values(widgetRegistry)) {
      expect(hasIcon(k.widgetName), k.widgetName).toBe(true);
      expect(readFileSync(join(__dirname, k.widgetName, 'icon.ts'), 'utf8')).toContain(`{ ${k.catalogue.icon} as default }`);
    }
  });

  it('builds the catalogue tree: folders M with components C', () => {
    const tree = shipped(widgetCatalogueTree('screen'));
    expect(tree.map((f) => [f.widgetType, f.widgetTitle, f.children.map((c) => c.widgetTitle)])).toEqual([
      ['M', '表单组件', ['单行标题', '轮播图']],
      ['M', '图表组件', ['边框', '动态环图', '滚动表格', '柱状图']],
    ]);
    // the form designer also offers the form controls; the screen designer does not
    expect(shipped(widgetCatalogueTree('form')).map((f) => f.widgetTitle)).toEqual(['表单组件', '图表组件', '表单控件']);
    expect(shipped(widgetCatalogueTree('form'))[2].children.map((c) => c.widgetTitle)).toEqual(['单行文本', '多行文本', '数字', '下拉选择', '单选', '多选', '开关', '日期', '日期范围', '图片上传', '提交按钮']);
    const flat = widgetCatalogue();
    const folders = new Set(flat.filter((c) => SHIPPED.includes(c.widgetName!)).map((c) => c.parentId));
    expect(flat.filter((c) => SHIPPED.includes(c.widgetName!) || (c.widgetType === 'M' && folders.has(c.id)))).toHaveLength(20);
    expect(flat[1]).toEqual({ id: 'singleLineTitle', parentId: 'form', widgetType: 'C', widgetTitle: '单行标题', maxUse: 0, icon: 'FontSizeOutlined', widgetName: 'singleLineTitle' });
  });

  it('creates a widget entity with the spec shape', () => {
    const w = createWidget('singleLineTitle', { pageId: 'p1', id: 'w1', top: 12, left: 34 });
    expect(w).toEqual({
      id: 'w1',
      pageId: 'p1',
      widgetName: 'singleLineTitle',
      widgetTitle: '单行标题',
      icon: 'FontSizeOutlined',
      isHead: false,
      isTail: false,
      widgetProps: {
        widgetViewName: 'SingleLineTitle',
        widgetFormName: 'SchemaPanel',
        selectedTab: 'view',
        viewProps: { width: 200, height: 60, top: 12, left: 34, text: '单行标题', fontSize: 16, fontWeight: 600, color: '#A8E3FF', textAlign: 'center' },
        versionProps: { title: '单行标题', widgetNum: 'W0001', version: '1.0.0', upgrade: false, docUrl: '' },
        datasourceProps: { datasourceType: 'STATIC', dataMapping: [], dataConfig: { data: [] } },
      },
    });
    // Entities never share default objects.
    const a = createWidget('carousel', { pageId: 'p' });
    const b = createWidget('carousel', { pageId: 'p' });
    expect(a.id).not.toBe(b.id);
    a.widgetProps.datasourceProps.dataConfig.data!.pop();
    expect(b.widgetProps.datasourceProps.dataConfig.data).toHaveLength(4);
  });

  it('carries the spec defaults of every kind', () => {
    const vp = (n: string) => widgetRegistry[n].defaults.viewProps;
    const ds = (n: string) => widgetRegistry[n].defaults.datasourceProps;
    expect(vp('borderBox')).toMatchObject({ width: 300, height: 300 });
    expect(vp('carousel')).toMatchObject({ width: 200, height: 100, fitType: 'cover', interval: 5000 });
    expect(ds('carousel').dataMapping.map((m) => [m.prop, m.field])).toEqual([['imgUrl', 'url'], ['imgLink', 'link']]);
    expect(ds('carousel').dataConfig.data).toHaveLength(4);
    expect(ds('activeRing').dataConfig.data).toHaveLength(7);
    expect(vp('scrollTable')).toMatchObject({ width: 500, height: 400, top: 0, left: 0 });
    expect(ds('scrollTable').dataMapping).toHaveLength(4);
    expect(ds('barChart').dataConfig.data![0]).toMatchObject({ date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(vp('activeRing')).toMatchObject({ width: 300, height: 300 });
    const color = widgetRegistry.singleLineTitle.viewSchema.properties!.color as { maxLength: number };
    expect(color.maxLength).toBe(30);
  });

  it('keeps dictionary-backed enums equal to their dictionaries', () => {
    for (const kind of Object.values(widgetRegistry)) {
      for (const [key, ui] of Object.entries(kind.uiSchema.viewProps)) {
        const dict = (ui as { 'ui:options'?: { dict?: string } })?.['ui:options']?.dict;
        if (!dict) continue;
        const file = readJson(join(root, 'dicts', `${dict}.json`));
        const prop = kind.viewSchema.properties![key] as { enum: unknown[] };
        expect(prop.enum).toEqual(file.items.map((i: { value: unknown }) => i.value));
      }
    }
    expect(textAlignDict.items.map((i) => i.value)).toEqual(['center', 'left', 'right']);
  });
});
