import { createElement, useMemo } from 'react';
import { CrudPageWith, type CrudPageProps } from './CrudPage';
import { coreServices } from './coreServices';
import { CrudServicesContext, type CrudServices } from './services';
import { SettingsPageWith } from './SettingsPage';

/**
 * The shell renders menu component `page:<id>` as <CrudPage pageId={id} loadPage={…} />: built-in declarations
 * ship with the renderer, the app says where the others (custom pages) are loaded from.
 */
export function CrudPage({ loadPage, ...props }: CrudPageProps & { loadPage?: CrudServices['loadPage'] }) {
  const services = useMemo(() => (loadPage ? { ...coreServices, loadPage } : coreServices), [loadPage]);
  return createElement(CrudPageWith, { ...props, services });
}

export { CrudView } from './CrudView';

/** The shell renders menu component `settings:<id>` as <SettingsPage settingsId={id} /> (schemas/settings). */
export function SettingsPage({ settingsId }: { settingsId: string }) {
  return createElement(CrudServicesContext.Provider, { value: coreServices }, createElement(SettingsPageWith, { settingsId }));
}
export { CrudPageWith } from './CrudPage';
export { type CrudServices, type DictItem } from './services';
export { CrudServicesContext };
export { builtinPages, parseDeclaration } from './declarations';
export { coreServices } from './coreServices';
export type { ActionDecl, ColumnDecl, FieldSchema, PageDeclaration, Row } from './types';
