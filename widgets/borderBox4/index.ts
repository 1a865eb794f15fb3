// The borderBox4 kind's component, found by the registry (widgets/registry.ts) through this file.
export { BorderBox4 as default } from './BorderBox4';
