// The formCheckbox kind's component, found by the registry (widgets/registry.ts) through this file.
export { FormCheckbox as default } from './FormCheckbox';
