// The borderBox2 kind's component, found by the registry (widgets/registry.ts) through this file.
export { BorderBox2 as default } from './BorderBox2';
