import { createElement } from 'react';
import { CrudPageWith, type CrudPageProps } from './CrudPage';
import { coreServices } from './coreServices';

/** The shell renders menu component `page:<id>` as <CrudPage pageId={id} />. */
export function CrudPage(props: CrudPageProps) {
  return createElement(CrudPageWith, { ...props, services: coreServices });
}

export { CrudView } from './CrudView';
export { CrudPageWith } from './CrudPage';
export { CrudServicesContext, type CrudServices, type DictItem } from './services';
export { builtinPages, parseDeclaration } from './declarations';
export { coreServices } from './coreServices';
export type { PageDeclaration, Row } from './types';
