// @vitest-environment node
// TypeScript strict and ESLint over the whole tree are part of `npm test`, so CI keeps both clean.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const run = (args: string[]) => spawnSync('npx', args, { cwd: root, encoding: 'utf8', timeout: 280_000 });

describe('static checks', () => {
  it('typechecks (tsc --noEmit, strict)', { timeout: 300_000 }, () => {
    const r = run(['tsc', '-p', 'tsconfig.json', '--noEmit']);
    expect(r.status, r.stdout.slice(0, 4000)).toBe(0);
  });

  it('lints (eslint .)', { timeout: 300_000 }, () => {
    const r = run(['eslint', '.', '--max-warnings', '0']);
    expect(r.status, r.stdout.slice(0, 4000)).toBe(0);
  });
});
