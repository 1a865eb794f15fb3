// The formRadio kind's component, found by the registry (widgets/registry.ts) through this file.
export { FormRadio as default } from './FormRadio';
