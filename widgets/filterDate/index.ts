// The filterDate kind's component, found by the registry (widgets/registry.ts) through this file.
export { FilterDate as default } from './FilterDate';
