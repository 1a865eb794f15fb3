// The formSwitch kind's component, found by the registry (widgets/registry.ts) through this file.
export { FormSwitch as default } from './FormSwitch';
