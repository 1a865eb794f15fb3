// Each kind's catalogue icon comes from its own folder (widgets/<kind>/icon.ts re-exports the @ant-design/icons
// component its declaration names in catalogue.icon): no central list to edit when a kind is added, and only the
// icons kinds use are bundled.
import { AppstoreOutlined } from '@ant-design/icons';
import type { ComponentType } from 'react';

const files = import.meta.glob<{ default: ComponentType }>('./*/icon.ts', { eager: true });
const BY_KIND: Record<string, ComponentType> = Object.fromEntries(Object.entries(files).map(([file, mod]) => [file.split('/')[1], mod.default]));

/** The icon of a kind (by its widgetName), or the generic one. */
export function WidgetIcon({ kind }: { kind?: string | null }) {
  const Icon = (kind && BY_KIND[kind]) || AppstoreOutlined;
  return <Icon />;
}

/** Whether a kind's folder holds its icon. */
export function hasIcon(kind: string): boolean {
  return Object.hasOwn(BY_KIND, kind) && typeof BY_KIND[kind] !== 'undefined';
}
