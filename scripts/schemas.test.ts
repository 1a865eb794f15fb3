// @vitest-environment node
// The schema toolchain: every file in schemas/ passes the meta-schema it names (the same loader the
// server runs at start), and schemas/generated/ is what `npm run gen:types` would write now.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchemas } from '../server-stub/core/schemas.js';
import { generate } from './gen-types.js';

const root = path.resolve(import.meta.dirname, '..');

describe('schemas/', () => {
  it('every declaration passes its meta-schema under strict ajv', () => {
    const loaded = loadSchemas(root);
    expect(Object.keys(loaded.dicts).length).toBeGreaterThanOrEqual(16);
    expect(loaded.menus.platform).toBeDefined();
    expect(loaded.roles.roles.map((r: { roleKey: string }) => r.roleKey).sort()).toEqual(['biz_approve', 'default', 'dev_approve', 'sys_admin']);
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
