// The formDate kind's component, found by the registry (widgets/registry.ts) through this file.
export { FormDate as default } from './FormDate';
