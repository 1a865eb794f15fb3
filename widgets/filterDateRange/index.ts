// The filterDateRange kind's component, found by the registry (widgets/registry.ts) through this file.
export { FilterDateRange as default } from './FilterDateRange';
