// The filterSelect kind's component, found by the registry (widgets/registry.ts) through this file.
export { FilterSelect as default } from './FilterSelect';
