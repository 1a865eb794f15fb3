// The pagedTable kind's component, found by the registry (widgets/registry.ts) through this file.
export { PagedTable as default } from './PagedTable';
