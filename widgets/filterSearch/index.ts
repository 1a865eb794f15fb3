// The filterSearch kind's component, found by the registry (widgets/registry.ts) through this file.
export { FilterSearch as default } from './FilterSearch';
