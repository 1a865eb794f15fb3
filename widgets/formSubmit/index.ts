// The formSubmit kind's component, found by the registry (widgets/registry.ts) through this file.
export { FormSubmit as default } from './FormSubmit';
