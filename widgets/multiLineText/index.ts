// The multiLineText kind's component, found by the registry (widgets/registry.ts) through this file.
export { MultiLineText as default } from './MultiLineText';
