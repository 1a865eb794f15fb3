import { createElement, useMemo } from 'react';
import { CrudPageWith, type CrudPageProps } from './CrudPage';
import { coreServices } from './coreServices';
import type { CrudServices } from './services';

/**
 * The shell renders menu component `page:<id>` as <CrudPage pageId={id} loadPage={…} />: built-in declarations
 * ship with the renderer, the app says where the others (custom pages) are loaded from.
 */
export function CrudPage({ loadPage, ...props }: CrudPageProps & { loadPage?: CrudServices['loadPage'] }) {
  const services = useMemo(() => (loadPage ? { ...coreServices, loadPage } : coreServices), [loadPage]);
  return createElement(CrudPageWith, { ...props, services });
}

export { CrudView } from './CrudView';
export { CrudPageWith } from './CrudPage';
export { CrudServicesContext, type CrudServices, type DictItem } from './services';
export { builtinPages, parseDeclaration } from './declarations';
export { coreServices } from './coreServices';
export type { ActionDecl, ColumnDecl, FieldSchema, PageDeclaration, Row } from './types';
