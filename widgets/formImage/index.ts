// The formImage kind's component, found by the registry (widgets/registry.ts) through this file.
export { FormImage as default } from './FormImage';
