// The filterButtons kind's component, found by the registry (widgets/registry.ts) through this file.
export { FilterButtons as default } from './FilterButtons';
