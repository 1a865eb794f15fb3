// The singleLineTitle kind's component, found by the registry (widgets/registry.ts) through this file.
export { SingleLineTitle as default } from './SingleLineTitle';
