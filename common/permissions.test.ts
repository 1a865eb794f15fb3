import { ALL_PERMISSIONS, hasAnyPermission, hasPermission, permissionGrants } from './permissions';

describe('permission strings (one reading for browser and server)', () => {
  const cases: Array<[held: string, wanted: string, granted: boolean]> = [
    ['*:*:*', 'gemini:datasource:add', true],
    ['*:*:*', 'api.config.list.group', true], // everything, whatever its shape
    ['*:*:*', '*:*:*', true],
    ['gemini:datasource:list', 'gemini:datasource:list', true],
    ['gemini:datasource:list', 'gemini:datasource:add', false],
    ['sys:var:*', 'sys:var:save', true],
    ['sys:*:list', 'sys:var:list', true],
    ['sys:var:*', 'sys:var', false], // segment counts must agree
    ['sys:var', 'sys:var:list', false],
    ['api.config.list.group', 'api.config.list.group', true],
    // a '*' asked for is not a wildcard: asking for *:*:* asks whether the user holds everything
    ['gemini:datasource:list', 'gemini:*:list', false],
    ['sys:var:*', '*:*:*', false],
    ['gemini:*:list', 'gemini:*:list', true],
  ];
  for (const [held, wanted, granted] of cases) {
    it(`${held} ${granted ? 'grants' : 'does not grant'} ${wanted}`, () => {
      expect(permissionGrants(held, wanted)).toBe(granted);
      expect(hasPermission([held], wanted)).toBe(granted);
    });
  }
  it('lists: any held grants any wanted', () => {
    expect(hasPermission([], 'a:b:c')).toBe(false);
    expect(hasPermission(['x:y:z', ALL_PERMISSIONS], 'a:b:c')).toBe(true);
    expect(hasAnyPermission(['a:b:c'], ['x:y:z', 'a:b:c'])).toBe(true);
    expect(hasAnyPermission(['a:b:c'], [])).toBe(false);
  });
});
