// The formSelect kind's component, found by the registry (widgets/registry.ts) through this file.
export { FormSelect as default } from './FormSelect';
