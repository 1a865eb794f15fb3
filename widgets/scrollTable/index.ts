// The scrollTable kind's component, found by the registry (widgets/registry.ts) through this file.
export { ScrollTable as default } from './ScrollTable';
