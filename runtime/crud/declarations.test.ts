import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import meta from '../../schemas/meta/page.schema.json';

// Every page declaration (built-in and example) must pass the meta-schema in ajv strict mode.
const ajv = new Ajv({ strict: true, allErrors: true });
const validate = ajv.compile(meta);
const dirs = ['schemas/pages', 'schemas/examples'];

describe('page declarations', () => {
  for (const dir of dirs) {
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.page.json'))) {
      it(`${dir}/${f} is valid`, () => {
        const decl = JSON.parse(readFileSync(join(dir, f), 'utf8'));
        const ok = validate(decl);
        expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
        expect(ok).toBe(true);
        expect(decl.$schema).toBe('../meta/page.schema.json');
        expect(f).toBe(`${decl.id}.page.json`);
      });
    }
  }
});
