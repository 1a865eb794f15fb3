// The formNumber kind's component, found by the registry (widgets/registry.ts) through this file.
export { FormNumber as default } from './FormNumber';
