// The formDateRange kind's component, found by the registry (widgets/registry.ts) through this file.
export { FormDateRange as default } from './FormDateRange';
