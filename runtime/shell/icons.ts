// Menu icons by name. A fixed set keeps the bundle small (the full icon package is megabytes);
// add a name in menuIconSet.ts when a menu needs a new one. Unknown names fall back to AppstoreOutlined.
import { createElement, type ComponentType } from 'react';
import * as iconSet from './menuIconSet';

const icons: Record<string, ComponentType | undefined> = iconSet;

export function menuIcon(name?: string) {
  if (!name) return undefined;
  return createElement(icons[name] ?? iconSet.AppstoreOutlined);
}
