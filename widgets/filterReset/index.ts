// The filterReset kind's component, found by the registry (widgets/registry.ts) through this file.
export { FilterReset as default } from './FilterReset';
