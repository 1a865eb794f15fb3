// The formSubTable kind's component, found by the registry (widgets/registry.ts) through this file.
export { FormSubTable as default } from './FormSubTable';
