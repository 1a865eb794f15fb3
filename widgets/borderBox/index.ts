// The borderBox kind's component, found by the registry (widgets/registry.ts) through this file.
export { BorderBox as default } from './BorderBox';
