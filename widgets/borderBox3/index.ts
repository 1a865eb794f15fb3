// The borderBox3 kind's component, found by the registry (widgets/registry.ts) through this file.
export { BorderBox3 as default } from './BorderBox3';
