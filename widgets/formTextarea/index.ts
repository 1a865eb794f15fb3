// The formTextarea kind's component, found by the registry (widgets/registry.ts) through this file.
export { FormTextarea as default } from './FormTextarea';
