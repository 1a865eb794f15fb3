// @vitest-environment node
// The schema toolchain: every file in schemas/ and every widget kind's declaration (widgets/<kind>/<kind>.widget.json)
// passes the meta-schema it names (the same loader the server runs at start), and schemas/generated/ is what
// `npm run gen:types` would write now.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchemas, SchemaFileError } from '../server-stub/core/schemas.js';
import { generate } from './gen-types.js';

const root = path.resolve(import.meta.dirname, '..');

describe('schemas/', () => {
  it('every declaration passes its meta-schema under strict ajv', () => {
    const loaded = loadSchemas(root);
    expect(Object.keys(loaded.dicts).length).toBeGreaterThanOrEqual(16);
    expect(loaded.menus.platform).toBeDefined();
    expect(loaded.roles.roles.map((r: { roleKey: string }) => r.roleKey).sort()).toEqual(['biz_approve', 'default', 'designer', 'dev_approve', 'sys_admin']);
    // every kind folder's declaration, and nothing else
    const folders = readdirSync(path.join(root, 'widgets')).filter((k) => existsSync(path.join(root, 'widgets', k, `${k}.widget.json`)));
    expect(folders.length).toBeGreaterThanOrEqual(17);
    expect(Object.keys(loaded.widgets).sort()).toEqual(folders.sort());
  });

  describe('widget declarations in their kind folders', () => {
    /** A copy of schemas/ and of the kinds' declarations, changed by `mutate`; what the loader says of it. */
    function loadChanged(mutate: (root: string) => void): SchemaFileError | null {
      const copy = mkdtempSync(path.join(os.tmpdir(), 'kinds-'));
      try {
        cpSync(path.join(root, 'schemas'), path.join(copy, 'schemas'), { recursive: true });
        for (const k of readdirSync(path.join(root, 'widgets'))) {
          const file = path.join(root, 'widgets', k, `${k}.widget.json`);
          if (!existsSync(file)) continue;
          mkdirSync(path.join(copy, 'widgets', k), { recursive: true });
          cpSync(file, path.join(copy, 'widgets', k, `${k}.widget.json`));
        }
        mutate(copy);
        loadSchemas(copy);
        return null;
      } catch (e) {
        if (e instanceof SchemaFileError) return e;
        throw e;
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    }
    const edit = (copy: string, kind: string, change: (d: any) => void, to = kind) => {
      const from = path.join(copy, 'widgets', kind, `${kind}.widget.json`);
      const doc = JSON.parse(readFileSync(from, 'utf8'));
      change(doc);
      rmSync(from);
      mkdirSync(path.join(copy, 'widgets', to), { recursive: true });
      writeFileSync(path.join(copy, 'widgets', to, `${to}.widget.json`), JSON.stringify(doc, null, 2));
    };

    it('a kind that breaks the meta-schema is refused with its path and the JSON pointer', () => {
      const e = loadChanged((copy) => edit(copy, 'barChart', (d) => delete d.viewProps.properties.barColor.title));
      expect(e?.message).toBe(`${path.join('widgets', 'barChart', 'barChart.widget.json')}: /viewProps/properties/barColor 字段「viewProps.properties.barColor.title」缺少必填属性`);
    });

    it('a new folder is a new kind, and its folder, file and widgetName must be one name', () => {
      expect(loadChanged((copy) => edit(copy, 'barChart', (d) => (d.widgetName = 'barChart2'), 'barChart2'))).toBeNull();
      const e = loadChanged((copy) => edit(copy, 'barChart', () => undefined, 'columnChart'));
      expect(e?.message).toBe(`${path.join('widgets', 'columnChart', 'columnChart.widget.json')}: /widgetName 部件名「barChart」应与文件夹和文件名一致（${path.join('widgets', 'barChart', 'barChart.widget.json')}）`);
    });

    it('a widget declaration left in schemas/ is refused: a kind has one home', () => {
      const e = loadChanged((copy) => {
        const doc = JSON.parse(readFileSync(path.join(copy, 'widgets', 'barChart', 'barChart.widget.json'), 'utf8'));
        rmSync(path.join(copy, 'widgets', 'barChart'), { recursive: true });
        writeFileSync(path.join(copy, 'schemas', 'widgets', 'barChart.widget.json'), JSON.stringify({ ...doc, $schema: '../meta/widget.schema.json' }));
      });
      expect(e?.message).toBe(`${path.join('schemas', 'widgets', 'barChart.widget.json')}: /$schema 部件声明应放在 widgets/<widgetName>/<widgetName>.widget.json`);
    });
  });

  it('schemas/generated is fresh (run `npm run gen:types` after changing a schema)', async () => {
    const files = await generate();
    for (const [name, text] of Object.entries(files)) {
      const file = path.join(root, 'schemas', 'generated', name);
      expect(existsSync(file), `${name} missing`).toBe(true);
      expect(readFileSync(file, 'utf8'), `${name} is stale`).toBe(text);
    }
  });
});
