// The formInput kind's component, found by the registry (widgets/registry.ts) through this file.
export { FormInput as default } from './FormInput';
