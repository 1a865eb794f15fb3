// Menu icons by name: a name in the set draws that icon; no name draws none; anything else (also a name an
// object has by inheritance) falls back to AppstoreOutlined.
import { AppstoreOutlined, DatabaseOutlined } from '@ant-design/icons';
import { describe, expect, it } from 'vitest';
import { MENU_ICONS } from '../../common/menu-icons';
import { menuIcon } from './icons';
import * as iconSet from './menuIconSet';

describe('menuIcon', () => {
  it('draws the named icon, none without a name, AppstoreOutlined for an unknown one', () => {
    expect(menuIcon('DatabaseOutlined')?.type).toBe(DatabaseOutlined);
    expect(menuIcon(undefined)).toBeUndefined();
    expect(menuIcon('NoSuchOutlined')?.type).toBe(AppstoreOutlined);
    expect(menuIcon('constructor')?.type).toBe(AppstoreOutlined);
  });
});

describe('the menu icon set', () => {
  it('is exactly the names the icon picker offers (common/menu-icons.ts)', () => {
    expect(Object.keys(iconSet).sort()).toEqual([...MENU_ICONS].sort());
  });
});
